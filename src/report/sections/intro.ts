/** The top of the report, above the first section: the spec, its hash, the run settings and the job counts. */
import type { ReportContext } from '../context.js';
import type { Block } from '../document.js';

/** The spec, its hash, the run settings and the job counts, above the first section. */
export function introBlocks(c: ReportContext): Block[] {
  const { input } = c;
  const missing = input.expectedJobs - input.rows.length - input.failed.length;
  return [
    { kind: 'p', text: `Spec ${input.specFile} (sha256 ${input.specHash.slice(0, 12)}).` },
    {
      kind: 'list',
      items: [
        ...Object.entries(input.settings).map(([k, v]) => `${k}: ${v}`),
        `jobs: ${input.rows.length} done, ${input.failed.length} failed${missing > 0 ? `, ${missing} not run yet` : ''} (of ${input.expectedJobs})`,
      ],
    },
  ];
}
