/** Renders a SyncSummary for people (the --json form is the object itself). */
import type { SyncSummary } from '../store/run-summary.js';
import type { RejectedRow } from './summary.js';

/** Rejected rows listed in the text summary; the rest are in --report and the dashboard. */
const REJECTED_SHOWN = 10;

function filled(defaults: Record<string, number>): string {
  const parts = Object.entries(defaults)
    .filter(([, n]) => n > 0)
    .map(([field, n]) => `${field} ${n}`);
  return parts.length === 0 ? '' : `\n  defaults filled: ${parts.join(', ')}`;
}

/** The drift a run went on with (--accept-shape), one line; nothing otherwise (a refusal's reasons are the guard's). */
function acceptedShape(summary: SyncSummary): string[] {
  const shape = summary.shape;
  if (shape?.accepted !== true) return [];
  const what = shape.drift.map((drift) => `'${drift.column}' (${drift.fields.join(', ')}) ${drift.kind === 'gone' ? 'gone' : 'emptied'}`);
  const recorded = summary.dryRun ? "a real run records it as the feed's shape" : "recorded as the feed's shape from now on";
  return [`shape   changed, accepted with --accept-shape (${recorded}): ${what.join('; ')}`];
}

/** A run refused as soon as its feed opened: only the header was read. */
function refusedAtHeader(summary: SyncSummary): string {
  const lines = [
    `run ${summary.runId} · chatbot ${summary.chatbot}${summary.dryRun ? ' · dry run (nothing was changed)' : ''}`,
    `feed    ${summary.feed.source}: refused at its header; its rows, the chatbot's listings and a plan were not read`,
    'guard   REFUSED: nothing was changed',
    ...summary.guard.reasons.map((reason) => `          ${reason}`),
  ];
  return `${lines.join('\n')}\n`;
}

export function formatSummary(summary: SyncSummary, rejected: readonly RejectedRow[] = []): string {
  if (summary.shape?.stage === 'header' && !summary.guard.ok) return refusedAtHeader(summary);
  const { feed, remote, plan, guard } = summary;
  const lines = [
    `run ${summary.runId} · chatbot ${summary.chatbot}${summary.dryRun ? ' · dry run (nothing was changed)' : ''}`,
    `feed    ${feed.rows} rows: ${feed.valid} valid, ${feed.rejected} rejected (${feed.duplicates} duplicates), ${feed.excluded} excluded${filled(feed.filledDefaults)}`,
    ...rejected.slice(0, REJECTED_SHOWN).map((row) => `          line ${row.line}: ${row.reason}`),
    ...(rejected.length > REJECTED_SHOWN ? [`          … and ${rejected.length - REJECTED_SHOWN} more rejected rows (see --report)`] : []),
    `remote  ${remote.listings} listings (VirtualCount ${remote.virtualCount}), ${remote.complete ? 'complete' : 'INCOMPLETE'}, ${remote.duplicates} duplicated keys, ${remote.unkeyed} without a key`,
    ...remote.incompleteReasons.map((reason) => `          ${reason}`),
    `plan    create ${plan.create}, update ${plan.update}, delete ${plan.delete}, unchanged ${plan.unchanged}${plan.held > 0 ? `, held ${plan.held} (rejected rows: left as they are)` : ''}${plan.adopted ? `; ${plan.adopted} unchanged listings adopted into the ledger` : ''}`,
    ...(plan.deletesWithheld ? [`          deletes withheld: ${plan.deletesWithheld.reason}`] : []),
    `guard   ${guard.ok ? (guard.forced ? 'FORCED past the guard' : 'ok') : 'REFUSED: nothing was changed'}`,
    ...guard.reasons.map((reason) => `          ${reason}`),
    ...acceptedShape(summary),
  ];
  if (summary.jobs !== undefined) lines.push(`jobs    ${summary.jobs} enqueued`);
  if (summary.result) {
    const r = summary.result;
    lines.push(
      `result  created ${r.created}, updated ${r.updated}, deleted ${r.deleted}, failed ${r.failed}${r.superseded ? `, superseded ${r.superseded}` : ''}${r.retried ? `, retried ${r.retried}` : ''}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
