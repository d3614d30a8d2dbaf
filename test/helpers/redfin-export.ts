/**
 * The Redfin export the content-safety e2e tests sync: the real one (`../shared/data`, 350 Chicago
 * listings from a public export) when the clone has it beside, as CI does; else the project's own
 * fixture of the same shape (the same 27 columns, 350 rows, as sparse: PRICE on every row, BEDS on
 * nearly all, SQUARE FEET on two thirds), since a user's clone has no `../shared` and the tests
 * must pass there too.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const REAL_EXPORT = resolve(import.meta.dirname, '../../../shared/data/redfin_export_chicago_2022.csv');
const SHAPED_FIXTURE = resolve(import.meta.dirname, '../../fixtures/redfin/export-chicago-shaped.csv');

/** Rows of either file. */
export const REDFIN_EXPORT_ROWS = 350;

/** The path of the export to sync (see the module comment). */
export function redfinExport(): string {
  return existsSync(REAL_EXPORT) ? REAL_EXPORT : SHAPED_FIXTURE;
}
