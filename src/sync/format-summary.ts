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

export function formatSummary(summary: SyncSummary, rejected: readonly RejectedRow[] = []): string {
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
