/** ROC and reliability curves from saved predictions (prediction-curves.ts draws them), when there are any. */
import type { ReportContext } from '../context.js';
import type { Section } from '../document.js';
import { predictionCurvesSection } from '../prediction-curves.js';

export function predictionCurveSections(c: ReportContext): Section[] | Promise<Section[]> {
  return predictionCurvesSection(c.input.curves, c.figureId, (f) => c.addFigure(f));
}
