/** A data set as a plan names it and a worker loads it: plain, structured-cloneable data. */
export interface DatasetHandle {
  readonly name: string;
  /** Absolute path of the CSV/ARFF file. */
  readonly file: string;
  readonly sha256: string;
  readonly classColumn?: string;
  readonly columnTypes?: Readonly<Record<string, 'numeric' | 'categorical'>>;
  /** Columns left out (declared in the spec's dataset entry). */
  readonly ignore?: readonly string[];
}
