/**
 * The where check of a fleet chatbot's run: a `where` on a field that none of the source's records
 * carries matches nothing, which reads exactly like "every listing of this chatbot is gone". Why a
 * refusal rather than a guard limit: the deletes would come from a typo in fleet.yaml, not from the
 * MLS, so none is made whatever the limits, and the user is told which field and how to fix it.
 */
import type { GuardVerdict } from '../domain/guard.js';
import type { FeedStats } from '../feed/open-feed.js';
import { didYouMean } from '../shared/nearest-names.js';
import { plural } from '../shared/counts.js';

/** The refusal's sentence for the fields no record carried. */
export function whereNotCarriedReason(
  missing: NonNullable<FeedStats['whereNotCarried']>,
  records: number,
  source: string | undefined,
): string {
  const from = source === undefined ? 'the feed' : `source ${source}`;
  const fields = missing.fields.map((field) => `'${field}'${didYouMean(field, missing.known)}`).join(', ');
  const which = missing.fields.length === 1 ? 'field' : 'fields';
  return (
    `the chatbot's where reads the ${which} ${fields}, which none of the ${plural(records, 'record')} of ${from} carries, ` +
    `so it would match nothing and every listing of the chatbot would look gone: nothing was changed. Fix the ` +
    `chatbot's where in the fleet file (field names are the source's own, as spelled in its records or CSV header), ` +
    `run \`listing-sync fleet apply FILE\`, then run the source again`
  );
}

/** The guard's verdict, refused (and not forceable) when the where reads a field no record carried. */
export function guardWithWhere(guard: GuardVerdict, stats: FeedStats, source: string | undefined): GuardVerdict {
  const missing = stats.whereNotCarried;
  if (missing === undefined) return guard;
  const records = stats.rows + (stats.outsideFilter ?? 0);
  return { ...guard, ok: false, forced: false, reasons: [whereNotCarriedReason(missing, records, source)] };
}
