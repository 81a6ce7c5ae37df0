/**
 * DOM and number helpers of the page, and the shapes of the server's answers (the report's comparison of one
 * metric, as JSON: non-finite numbers arrive as the strings "NaN", "Infinity").
 */
type Num = number | string;

export interface Cell {
  mean: Num;
  sd: Num;
  n: number;
  planned?: number;
}

export interface MetricComparison {
  metric: { key: string; title: string; higherIsBetter: boolean; digits: number };
  table: {
    datasets: string[];
    methods: string[];
    cells: (Cell | null)[][];
    average: Num[];
    ranks: Num[];
    completeDatasets: number;
  };
  datasets: string[];
  methods: string[];
  meanRanks: number[];
  friedman: {
    chi2: Num;
    df: number;
    p: Num;
    imanDavenport: { F: Num; df1: number; df2: Num; p: Num };
    nDatasets: number;
    nMethods: number;
  } | null;
  posthoc: {
    control: number;
    comparisons: { method: number; meanRank: Num; rankDifference: Num; z: Num; p: Num; pAdjusted: Num }[];
  } | null;
  cd: { cd: Num; alpha: number; procedure: string } | null;
  pairs: {
    a: string;
    b: string;
    wdl: { wins: number; draws: number; losses: number } | null;
    sign: { p: Num } | null;
    wilcoxon: { p: Num } | null;
    wilcoxonAdjusted: Num;
    error: string | null;
  }[];
  notes: string[];
}

type Child = Node | string;
type Attrs = Record<string, string | ((ev: Event) => void)>;

/** An element with attributes (on* keys are listeners) and children. */
export function h(tag: string, attrs: Attrs = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (v !== '') el.setAttribute(k, v);
  }
  el.append(...children);
  return el;
}

/** A number with fixed decimals; '–' for missing, the word for non-finite. */
export function fmt(x: Num | null | undefined, digits: number): string {
  if (x === null || x === undefined) return '–';
  const n = Number(x);
  if (Number.isNaN(n)) return '–';
  if (!Number.isFinite(n)) return n > 0 ? '∞' : '−∞';
  return n.toFixed(digits);
}

/** A p-value as the report prints it: 4 significant digits, '< 1e-4' below. */
export function fmtP(p: Num | null | undefined): string {
  if (p === null || p === undefined) return '–';
  const n = Number(p);
  if (!Number.isFinite(n)) return '–';
  if (n < 1e-4) return '< 0.0001';
  return n.toPrecision(4);
}

export function pText(p: Num): string {
  const s = fmtP(p);
  return s.startsWith('<') ? `p ${s}` : `p = ${s}`;
}
