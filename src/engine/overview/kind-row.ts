// The rows an overview shows for a loop of another kind (a run's attempts, a work order's
// attempts, a repeat's runs), in a file of their own so that the builders of those rows
// (run-rows.ts) and the model that holds them (model.ts) do not import each other.

export interface KindRow {
  readonly n: number;
  readonly cells: string[];
  /** A run attempt's phases and their durations in ms (null: not measurable from the files). */
  readonly phases?: { readonly phase: string; readonly ms: number | null }[];
}

/** One attempt of a run, as the overview names it (its run folder when known). */
export interface RunAttemptRef {
  readonly runId: string;
  readonly attempt: number;
  readonly runDir?: string;
}
