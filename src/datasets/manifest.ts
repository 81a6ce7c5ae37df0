/**
 * Generates configs/datasets.yaml from data/uci/manifest.json (the provenance record written when the data
 * sets were collected). The YAML is the registry the code reads; the manifest stays the detailed record.
 * Regenerate after changing the manifest:
 *   writeFileSync('configs/datasets.yaml', registryYamlFromManifest(JSON.parse(readFileSync('data/uci/manifest.json', 'utf8'))))
 * test/datasets/registry.test.ts checks that the two agree.
 */
import { Document, isSeq } from 'yaml';
import type { DerivedFrom } from './derive.js';

interface ManifestColumn {
  name: string;
  type: 'numeric' | 'categorical';
}

interface ManifestDataset {
  name: string;
  file: string;
  uci_name?: string;
  source_package: string;
  source_package_version?: string;
  source_path: string;
  rows: number;
  attributes: number;
  classes: number;
  /** Cells recorded as missing in the source file (the loader's count must agree). */
  missing_values: number;
  sha256: string;
  lists: string[];
  columns: ManifestColumn[];
  notes?: string[];
  /** A declared class mapping of another shipped data set (src/datasets/derive.ts). */
  derived?: DerivedFrom;
}

export interface Manifest {
  datasets: ManifestDataset[];
}

/** Six small real data sets of different kinds (numeric, nominal, with missing values) that run in seconds. */
const QUICKSTART = ['breast-cancer', 'car', 'house-votes-84', 'iris', 'tic-tac-toe', 'zoo'] as const;

const GROUP_DESCRIPTIONS: Readonly<Record<string, string>> = {
  quickstart: 'six small real data sets for a first run: ' + QUICKSTART.join(', '),
  hdp68: 'data sets of the HDP paper (Petitjean et al. 2018, Table 6) that could be obtained',
  subbkb: 'likely candidates for the SubbKB list (unverified)',
  small: 'fewer than 1000 rows',
  medium: '1000 to 10000 rows',
  large: 'more than 10000 rows',
};

const LICENCE = 'CC BY 4.0';

/** Size group by row count: small < 1000 <= medium <= 10000 < large. */
function sizeGroup(rows: number): 'small' | 'medium' | 'large' {
  return rows < 1000 ? 'small' : rows <= 10000 ? 'medium' : 'large';
}

function groupsFor(d: Pick<ManifestDataset, 'name' | 'rows' | 'lists'>): string[] {
  const g: string[] = [];
  if ((QUICKSTART as readonly string[]).includes(d.name)) g.push('quickstart');
  if (d.lists.includes('hdp68')) g.push('hdp68');
  if (d.lists.includes('subbkb26')) g.push('subbkb');
  g.push(sizeGroup(d.rows));
  return g;
}

/** The registry YAML text for a manifest; entries sorted by name, the class column last in each file. */
export function registryYamlFromManifest(manifest: Manifest): string {
  const datasets = [...manifest.datasets]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((d) => {
      const classCol = d.columns[d.columns.length - 1].name;
      const columns: Record<string, string> = {};
      for (const c of d.columns.slice(0, -1)) columns[c.name] = c.type;
      const source: Record<string, string> = { package: d.source_package };
      if (d.source_package_version) source['version'] = d.source_package_version;
      source['path'] = d.source_path;
      return {
        name: d.name,
        ...(d.uci_name ? { title: d.uci_name } : {}),
        file: `data/uci/${d.file}`,
        class: classCol,
        rows: d.rows,
        attributes: d.attributes,
        classes: d.classes,
        licence: LICENCE,
        sha256: d.sha256,
        source,
        groups: groupsFor(d),
        ...(d.notes && d.notes.length > 0 ? { notes: d.notes } : {}),
        ...(d.derived ? { derived: d.derived } : {}),
        columns,
      };
    });
  const header = [
    '# Shipped data sets: the registry read by src/datasets/registry.ts.',
    '# Generated from data/uci/manifest.json by registryYamlFromManifest() in src/datasets/manifest.ts;',
    '# change the manifest and regenerate instead of editing entries by hand.',
    '',
  ].join('\n');
  const doc = new Document({ version: 1, groups: GROUP_DESCRIPTIONS, datasets });
  datasets.forEach((_, i) => {
    const g = doc.getIn(['datasets', i, 'groups'], true);
    if (isSeq(g)) g.flow = true;
  });
  return header + doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}
