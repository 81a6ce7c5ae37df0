/**
 * The page `bnclab ui` serves: markup skeleton and styles (light and dark by prefers-color-scheme, one
 * column below 760 px). Everything else is drawn by the bundled script (src/ui/client/).
 */
const CSS = `
:root { color-scheme: light dark; --bg: #fff; --fg: #1b1f24; --muted: #5b6470; --line: #d5d9de; --panel: #f4f6f8;
  --accent: #0b5cad; --best: #e3f1e0; --bad: #b3261e; --ok: #2e7d32; --warn: #9a6700; --bar: #c9dcf2; --focus: #f0b400; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #15181c; --fg: #e6e9ed; --muted: #a2abb6; --line: #3a4048; --panel: #1f2329; --accent: #7fb4ff;
    --best: #1f3b24; --bad: #ff8a80; --ok: #81c784; --warn: #e3b341; --bar: #2c4a6e; }
}
* { box-sizing: border-box; }
/* The figures name Helvetica and are laid out with its metrics (report/figures.ts); Arimo, the font the
   report's PDFs embed, has those metrics, so text fits as laid out where Helvetica is not installed (served
   from this server: ui/server.ts). */
@font-face { font-family: "bnclab figures"; src: url(/fonts/arimo-400.ttf) format("truetype"); font-weight: 400; }
@font-face { font-family: "bnclab figures"; src: url(/fonts/arimo-700.ttf) format("truetype"); font-weight: 700; }
.figure svg text { font-family: "bnclab figures", Helvetica, Arial, sans-serif !important; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--fg); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 1px; }
header { display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; align-items: center; padding: .6rem 1rem; border-bottom: 1px solid var(--line); background: var(--panel); }
header h1 { font-size: 1.05rem; margin: 0; }
nav { display: flex; gap: .25rem; flex-wrap: wrap; }
nav a { padding: .25rem .6rem; border-radius: 4px; text-decoration: none; }
nav a[aria-current="page"] { background: var(--accent); color: var(--bg); }
#source { color: var(--muted); font-size: .85rem; margin-left: auto; overflow-wrap: anywhere; }
main { padding: 1rem; max-width: 1600px; }
.layout { display: grid; grid-template-columns: 260px minmax(0, 1fr); gap: 1rem; align-items: start; }
@media (max-width: 760px) { .layout { grid-template-columns: 1fr; } main { padding: .6rem; } }
aside { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .6rem .75rem; }
aside label, aside legend { font-weight: 600; display: block; margin-top: .5rem; }
fieldset { border: 0; padding: 0; margin: 0; }
.choices { max-height: 260px; overflow: auto; border: 1px solid var(--line); border-radius: 4px; padding: .25rem .4rem; background: var(--bg); }
.choices label { font-weight: normal; display: flex; gap: .35rem; margin: 0; align-items: baseline; }
.choices small { color: var(--muted); margin-left: auto; }
select, input[type="search"], input[type="number"], button { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line); border-radius: 4px; padding: .2rem .35rem; max-width: 100%; }
button { cursor: pointer; }
.row { display: flex; gap: .35rem; flex-wrap: wrap; align-items: center; margin-top: .3rem; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: .4rem 0 1rem; font-variant-numeric: tabular-nums; }
th, td { padding: .2rem .55rem; border-bottom: 1px solid var(--line); text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
thead th { border-bottom: 2px solid var(--fg); position: sticky; top: 0; background: var(--bg); }
tr.summary td, tr.summary th { border-top: 2px solid var(--line); font-weight: 600; }
td.best { background: var(--best); font-weight: 700; }
td.best::after { content: " ★"; font-size: .8em; }
td.partial { color: var(--muted); font-style: italic; }
td a { text-decoration: none; color: inherit; }
td a:hover { text-decoration: underline; }
.muted { color: var(--muted); }
.error { color: var(--bad); }
.ok { color: var(--ok); }
.warn { color: var(--warn); }
@media (max-width: 760px) { table.report { min-width: 52rem; } }
#compare-controls fieldset { min-width: 0; max-width: 100%; }
#compare-controls label { display: block; margin-top: .3rem; }
#compare-controls select { max-width: min(22rem, 100%); }
table.report caption { caption-side: top; text-align: left; color: var(--muted); padding: .2rem 0; white-space: normal; }
table.report td { white-space: normal; min-width: 4rem; vertical-align: top; }
.figure { background: #fff; border-radius: 6px; padding: .4rem; display: inline-block; max-width: 100%; overflow-x: auto; }
.figure svg { max-width: 100%; height: auto; }
.bar { height: .6rem; background: var(--line); border-radius: 3px; min-width: 80px; position: relative; overflow: hidden; }
.bar span { position: absolute; inset: 0 auto 0 0; background: var(--ok); }
.bar span.f { background: var(--bad); }
.grid td { text-align: center; min-width: 3.5rem; }
.grid td.full { background: var(--best); }
.grid td.some { background: var(--bar); }
.grid td.failed { color: var(--bad); font-weight: 700; }
h2 { font-size: 1.1rem; margin: .8rem 0 .3rem; }
h3 { font-size: 1rem; margin: .8rem 0 .3rem; }
.exports a { margin-right: .6rem; }
pre { white-space: pre-wrap; background: var(--panel); padding: .5rem; border-radius: 4px; overflow-wrap: anywhere; }
.cards { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-start; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
`;

export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>bnclab ui</title>
<style>${CSS}</style>
</head>
<body>
<header>
  <h1>bnclab</h1>
  <nav aria-label="pages"></nav>
  <div id="source" aria-live="polite"></div>
</header>
<main id="main" tabindex="-1"><p class="muted">Loading…</p></main>
<script src="/app.js"></script>
</body>
</html>
`;
