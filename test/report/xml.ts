/**
 * A strict XML well-formedness parser for the tests: the report's HTML is written as polyglot markup
 * (parses as HTML5 and as XML), so parsing it as XML is a stricter check than an HTML5 parser, which
 * accepts any input. Checks: matched and properly nested tags, quoted and unique attributes, no raw '<' or
 * stray '&' in text or attribute values, only known entities.
 */

export interface XmlElement {
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  /** Concatenated text directly inside this element (entities decoded). */
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(s: string, at: number): string {
  return s.replace(/&([^;\s&<]*);?/g, (m, name: string) => {
    if (!m.endsWith(';'))
      throw new Error(`offset ${at}: '&' not starting an entity: ${JSON.stringify(m.slice(0, 12))}`);
    if (name in ENTITIES) return ENTITIES[name];
    const num = /^#(x[0-9a-fA-F]+|[0-9]+)$/.exec(name);
    if (num) return String.fromCodePoint(num[1].startsWith('x') ? parseInt(num[1].slice(1), 16) : parseInt(num[1], 10));
    throw new Error(`offset ${at}: unknown entity &${name};`);
  });
}

const NAME = /^[A-Za-z_:][A-Za-z0-9_.:-]*/;

/** Parse a document; returns the root element. Throws with an offset on the first error. */
export function parseXml(src: string): XmlElement {
  let i = 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const top = (): XmlElement | undefined => stack[stack.length - 1];
  while (i < src.length) {
    if (src.startsWith('<!--', i)) {
      const end = src.indexOf('-->', i + 4);
      if (end < 0) throw new Error(`offset ${i}: unterminated comment`);
      i = end + 3;
    } else if (src.startsWith('<![CDATA[', i)) {
      const end = src.indexOf(']]>', i);
      if (end < 0 || !top()) throw new Error(`offset ${i}: bad CDATA`);
      top()!.text += src.slice(i + 9, end);
      i = end + 3;
    } else if (src.startsWith('<?', i)) {
      const end = src.indexOf('?>', i);
      if (end < 0) throw new Error(`offset ${i}: unterminated processing instruction`);
      i = end + 2;
    } else if (src.startsWith('<!DOCTYPE', i) || src.startsWith('<!doctype', i)) {
      if (root || stack.length) throw new Error(`offset ${i}: DOCTYPE after the root element`);
      const end = src.indexOf('>', i);
      i = end + 1;
    } else if (src.startsWith('</', i)) {
      const m = NAME.exec(src.slice(i + 2));
      if (!m) throw new Error(`offset ${i}: bad closing tag`);
      const name = m[0];
      let j = i + 2 + name.length;
      while (/\s/.test(src[j] ?? '')) j++;
      if (src[j] !== '>') throw new Error(`offset ${i}: bad closing tag </${name}`);
      const open = stack.pop();
      if (!open || open.name !== name) throw new Error(`offset ${i}: </${name}> closes <${open?.name ?? 'nothing'}>`);
      i = j + 1;
    } else if (src[i] === '<') {
      const m = NAME.exec(src.slice(i + 1));
      if (!m) throw new Error(`offset ${i}: '<' not starting a tag: ${JSON.stringify(src.slice(i, i + 20))}`);
      const name = m[0];
      let j = i + 1 + name.length;
      const attrs: Record<string, string> = {};
      let selfClosing = false;
      for (;;) {
        const ws = j;
        while (/\s/.test(src[j] ?? '')) j++;
        if (src[j] === '>') {
          j++;
          break;
        }
        if (src.startsWith('/>', j)) {
          selfClosing = true;
          j += 2;
          break;
        }
        if (j === ws) throw new Error(`offset ${j}: expected whitespace before an attribute in <${name}>`);
        const an = NAME.exec(src.slice(j));
        if (!an) throw new Error(`offset ${j}: bad attribute in <${name}>: ${JSON.stringify(src.slice(j, j + 20))}`);
        const aname = an[0];
        j += aname.length;
        if (src[j] !== '=') throw new Error(`offset ${j}: attribute ${aname} of <${name}> has no value`);
        j++;
        const q = src[j];
        if (q !== '"' && q !== "'") throw new Error(`offset ${j}: attribute ${aname} of <${name}> is not quoted`);
        const end = src.indexOf(q, j + 1);
        if (end < 0) throw new Error(`offset ${j}: unterminated attribute ${aname}`);
        const raw = src.slice(j + 1, end);
        if (raw.includes('<')) throw new Error(`offset ${j}: '<' in attribute ${aname} of <${name}>`);
        if (aname in attrs) throw new Error(`offset ${j}: duplicate attribute ${aname} in <${name}>`);
        attrs[aname] = decode(raw, j);
        j = end + 1;
      }
      const el: XmlElement = { name, attrs, children: [], text: '' };
      if (top()) top()!.children.push(el);
      else if (root) throw new Error(`offset ${i}: a second root element <${name}>`);
      else root = el;
      if (!selfClosing) stack.push(el);
      i = j;
    } else {
      const end = src.indexOf('<', i);
      const raw = src.slice(i, end < 0 ? src.length : end);
      if (raw.trim() && !top()) throw new Error(`offset ${i}: text outside the root element`);
      if (top()) top()!.text += decode(raw, i);
      i = end < 0 ? src.length : end;
    }
  }
  if (stack.length) throw new Error(`unclosed <${stack.map((e) => e.name).join('> <')}>`);
  if (!root) throw new Error('no root element');
  return root;
}

export function walk(el: XmlElement, fn: (e: XmlElement) => void): void {
  fn(el);
  for (const c of el.children) walk(c, fn);
}

export function findAll(el: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  walk(el, (e) => {
    if (e.name === name) out.push(e);
  });
  return out;
}

/** All text inside an element, depth first. */
export function textOf(el: XmlElement): string {
  return el.text + el.children.map(textOf).join('');
}

const SVG_ELEMENTS = new Set([
  'svg',
  'g',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'title',
  'desc',
  'defs',
  'clipPath',
  'linearGradient',
  'radialGradient',
  'stop',
  'image',
  'use',
  'symbol',
  'style',
  'mask',
  'pattern',
]);
const LENGTHS = [
  'x',
  'y',
  'width',
  'height',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'stroke-width',
  'font-size',
];
const LENGTH = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?(px|em|ex|pt|pc|cm|mm|in|%)?$/;
const PATH_DATA = /^[MmLlHhVvCcSsQqTtAaZz0-9eE.,+\-\s]*$/;

/**
 * Validity of a standalone SVG beyond well-formedness: the SVG namespace on the root, positive size and
 * a four-number viewBox, only SVG element names, numeric geometry attributes, path data made of path
 * commands and numbers, and every url(#id) / href="#id" resolving to an element of the same SVG.
 * Returns the parsed root.
 */
export function assertValidSvg(svgOrRoot: string | XmlElement): XmlElement {
  const root = typeof svgOrRoot === 'string' ? parseXml(svgOrRoot) : svgOrRoot;
  if (root.name !== 'svg') throw new Error(`root is <${root.name}>, not <svg>`);
  if (root.attrs['xmlns'] !== 'http://www.w3.org/2000/svg') throw new Error('the root has no SVG namespace');
  for (const a of ['width', 'height']) {
    if (!(Number(root.attrs[a]) > 0)) throw new Error(`svg ${a} is not a positive number: ${root.attrs[a]}`);
  }
  const vb = (root.attrs['viewBox'] ?? '')
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  if (vb.length !== 4 || vb.some((v) => !Number.isFinite(v)) || !(vb[2] > 0 && vb[3] > 0))
    throw new Error(`bad viewBox '${root.attrs['viewBox']}'`);
  const ids = new Set<string>();
  const refs: string[] = [];
  walk(root, (e) => {
    if (!SVG_ELEMENTS.has(e.name)) throw new Error(`<${e.name}> is not an SVG element`);
    for (const a of LENGTHS) {
      const v = e.attrs[a];
      if (v !== undefined && !LENGTH.test(v.trim())) throw new Error(`<${e.name} ${a}="${v}"> is not a length`);
    }
    for (const a of ['opacity', 'fill-opacity', 'stroke-opacity']) {
      const v = e.attrs[a];
      if (v !== undefined && !(Number(v) >= 0 && Number(v) <= 1))
        throw new Error(`<${e.name} ${a}="${v}"> is not in [0, 1]`);
    }
    if (e.name === 'path' && e.attrs['d'] !== undefined && !PATH_DATA.test(e.attrs['d']))
      throw new Error(`bad path data '${e.attrs['d'].slice(0, 40)}'`);
    if (e.attrs['id']) {
      if (ids.has(e.attrs['id'])) throw new Error(`duplicate id '${e.attrs['id']}' in one SVG`);
      ids.add(e.attrs['id']);
    }
    for (const v of Object.values(e.attrs)) for (const m of v.matchAll(/url\(#([^)]+)\)/g)) refs.push(m[1]);
    const href = e.attrs['href'] ?? e.attrs['xlink:href'];
    if (href?.startsWith('#')) refs.push(href.slice(1));
  });
  for (const r of refs) if (!ids.has(r)) throw new Error(`reference to #${r}, which this SVG does not define`);
  return root;
}
