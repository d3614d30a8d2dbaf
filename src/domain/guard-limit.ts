/** A guard's limit as typed: a count, or a percentage of a base (`--max-deletes`, `--max-wipes`). */
export type GuardLimit = { kind: 'count'; value: number } | { kind: 'percent'; value: number };
