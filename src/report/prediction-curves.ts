/**
 * ROC curves and reliability (calibration) diagrams from saved predictions (`run --save-predictions`), one
 * figure each per dataset with a line per method (mlr3viz's autoplot(prediction, type = "roc"),
 * scikit-learn's RocCurveDisplay and CalibrationDisplay), pooled over the folds.
 *
 * ROC: two classes, the second class label is the positive one (as scikit-learn's pos_label = classes[1]);
 * more classes, micro-averaged one-vs-rest (every test row × class a case, its probability the score). The
 * curve is exact at the thresholds k/200 (scores grouped by floor(200·p)), drawn between them as straight
 * lines; its AUC is the trapezoid area of those points.
 * Reliability: top-label calibration (Guo et al. 2017): rows binned by the probability of their predicted
 * class into 10 equal-width bins; per bin the mean of that probability against the share predicted
 * correctly; ECE = Σ (n_bin / N)·|accuracy − confidence|.
 * Both are computed in the database (src/store/prediction-curves.ts), so a report reads a few hundred numbers,
 * not every prediction.
 */
import type { CurvePoints } from '../store/prediction-curves.js';
import type { Block, Section } from './document.js';
import { CONFIG, renderSvg, type Figure } from './figures.js';

export { loadPredictionCurves, type CurvePoints } from '../store/prediction-curves.js';

/** Trapezoid area under ROC points ordered by threshold (descending), starting at (0, 0). */
export function trapezoidAuc(points: readonly { fpr: number; tpr: number }[]): number {
  let a = 0;
  for (let i = 1; i < points.length; i++) {
    a += ((points[i].fpr - points[i - 1].fpr) * (points[i].tpr + points[i - 1].tpr)) / 2;
  }
  return a;
}

/** Expected calibration error of reliability bins. */
export function expectedCalibrationError(bins: readonly { conf: number; acc: number; n: number }[]): number {
  const n = bins.reduce((t, b) => t + b.n, 0);
  return n === 0 ? NaN : bins.reduce((t, b) => t + (b.n / n) * Math.abs(b.acc - b.conf), 0);
}

const UNIT = { domain: [0, 1], nice: false, zero: true };

/** A 320 × 320 chart on the unit square: the dashed diagonal, then the curves of `layer`. */
function unitSquareChart(title: string, layer: Record<string, unknown>): Promise<string> {
  return renderSvg({
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    width: 320,
    height: 320,
    config: CONFIG,
    layer: [
      {
        data: { values: [{ v: 0 }, { v: 1 }] },
        mark: { type: 'line', color: '#999', strokeDash: [4, 3] },
        encoding: {
          x: { field: 'v', type: 'quantitative', scale: UNIT },
          y: { field: 'v', type: 'quantitative', scale: UNIT },
        },
      },
      layer,
    ],
  } as never);
}

async function rocFigure(id: string, dataset: string, pts: CurvePoints['roc'], binary: boolean): Promise<Figure> {
  const methods = [...new Set(pts.map((p) => p.method))];
  const aucs = methods.map((m) => `${m} ${trapezoidAuc(pts.filter((p) => p.method === m)).toFixed(3)}`);
  const values = pts.map((p, i) => ({ ...p, order: i }));
  const title = `${dataset}: ROC curves`;
  const svg = await unitSquareChart(title, {
    data: { values },
    mark: { type: 'line', strokeWidth: 2 },
    encoding: {
      x: { field: 'fpr', type: 'quantitative', title: 'false positive rate', scale: UNIT, axis: { tickCount: 5 } },
      y: { field: 'tpr', type: 'quantitative', title: 'true positive rate', scale: UNIT, axis: { tickCount: 5 } },
      color: {
        field: 'method',
        type: 'nominal',
        title: 'method',
        legend: { orient: 'bottom', direction: 'vertical' },
      },
      order: { field: 'order', type: 'quantitative' },
    },
  });
  return {
    id,
    title,
    caption: `${dataset}: ROC curves over the test rows of all folds (${binary ? 'the second class label taken as positive' : 'micro-averaged one-vs-rest over the classes'}), exact at the thresholds k/200; area under each: ${aucs.join(', ')}.`,
    svg,
  };
}

async function reliabilityFigure(id: string, dataset: string, bins: CurvePoints['reliability']): Promise<Figure> {
  const methods = [...new Set(bins.map((p) => p.method))];
  const ece = methods.map((m) => `${m} ${expectedCalibrationError(bins.filter((b) => b.method === m)).toFixed(3)}`);
  const title = `${dataset}: reliability diagram`;
  const svg = await unitSquareChart(title, {
    data: { values: bins },
    mark: { type: 'line', strokeWidth: 2, point: { filled: true, size: 40 } },
    encoding: {
      x: {
        field: 'conf',
        type: 'quantitative',
        title: 'mean predicted probability (of the predicted class)',
        scale: UNIT,
        axis: { tickCount: 5 },
      },
      y: {
        field: 'acc',
        type: 'quantitative',
        title: 'share predicted correctly',
        scale: UNIT,
        axis: { tickCount: 5 },
      },
      color: {
        field: 'method',
        type: 'nominal',
        title: 'method',
        legend: { orient: 'bottom', direction: 'vertical' },
      },
      tooltip: [
        { field: 'method', type: 'nominal' },
        { field: 'n', type: 'quantitative', title: 'rows' },
      ],
    },
  });
  return {
    id,
    title,
    caption: `${dataset}: top-label reliability over the test rows of all folds: 10 equal-width bins of the predicted class's probability, the bin's mean probability against the share of its rows predicted correctly (the dashed diagonal is perfect calibration); expected calibration error: ${ece.join(', ')}.`,
    svg,
  };
}

/** The "ROC and reliability" section; empty without saved predictions. */
export async function predictionCurvesSection(
  curves: CurvePoints | undefined,
  figureId: (stem: string) => string,
  addFigure: (f: Figure) => Block,
): Promise<Section[]> {
  if (!curves || curves.reliability.length === 0) return [];
  const datasets = [...new Set(curves.reliability.map((b) => b.dataset))];
  const blocks: Block[] = [
    {
      kind: 'p',
      text: 'From the saved predictions (run --save-predictions): per dataset, the ROC curve and the reliability diagram of every method, pooled over the folds.',
    },
  ];
  for (const d of datasets) {
    const binary = curves.classes.get(d) === 2;
    blocks.push(
      addFigure(
        await rocFigure(
          figureId(`roc-${d}`),
          d,
          curves.roc.filter((p) => p.dataset === d),
          binary,
        ),
      ),
    );
    blocks.push(
      addFigure(
        await reliabilityFigure(
          figureId(`reliability-${d}`),
          d,
          curves.reliability.filter((b) => b.dataset === d),
        ),
      ),
    );
  }
  return [{ title: 'ROC curves and reliability diagrams', level: 2, blocks }];
}
