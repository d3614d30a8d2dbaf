/** Renders a SyncSummary for people (the --json form is the object itself). */
import { HIDDEN_FIELDS_CHANGE, showSample } from '../domain/field-changes.js';
import { count as n, plural } from '../shared/counts.js';
import type { SyncSummary } from '../store/run-summary.js';
import type { RejectedRow } from './summary.js';
import { displayLines } from './format-display.js';

/** Rejected rows listed in the text summary; the rest are in --report and the dashboard. */
const REJECTED_SHOWN = 10;
const REJECTED_KINDS_SHOWN = 10;

function filled(defaults: Record<string, number>): string {
  const parts = Object.entries(defaults)
    .filter(([, filledCount]) => filledCount > 0)
    .map(([field, filledCount]) => `${field} ${n(filledCount)}`);
  return parts.length === 0 ? '' : `\n  defaults filled: ${parts.join(', ')}`;
}

/** "left empty: HOAMonth: AssociationFeeFrequency 'One Time' has no monthly amount (5 listings)". */
function leftEmpty(notes: Record<string, number> | undefined): string {
  const parts = Object.entries(notes ?? {}).map(([why, emptied]) => `${why} (${plural(emptied, 'listing')})`);
  return parts.length === 0 ? '' : `\n  left empty: ${parts.join('; ')}`;
}

type Sample = NonNullable<SyncSummary['changes']>[number]['samples'][number];

function examples(samples: readonly Sample[], changed: number): string {
  const shown = samples.map(showSample);
  const more = changed > samples.length ? ` (and ${n(changed - samples.length)} more)` : '';
  return `e.g. ${shown.join('; ')}${more}`;
}

/** Lines under a heading: the first after it, the others indented to its text. */
function block(heading: string, lines: readonly string[]): string[] {
  return lines.map((line, i) => `${i === 0 ? heading.padEnd(8) : ' '.repeat(8)}${line}`);
}

type Change = NonNullable<SyncSummary['changes']>[number];

/** The words after the counts of fields the service does not read back (docs/feeds-and-mappings.md "Fields not read back"). */
export const NOT_READ_BACK_NOTE = 'not read back by the service; compared with what this tool last sent';

/**
 * The changes of fields the read did not show, on one line: "Description 12, Images 40 (not read
 * back …), e.g. BG1 Description now …", the first sample of each field; and, for ledger entries
 * that name no field, how many listings and why.
 */
function notReadBackLine(changes: readonly Change[]): string[] {
  const named = changes.filter((change) => change.field !== HIDDEN_FIELDS_CHANGE);
  const unknown = changes.find((change) => change.field === HIDDEN_FIELDS_CHANGE);
  const lines: string[] = [];
  if (named.length > 0) {
    const counts = named.map((change) => `${change.field} ${n(change.count)}`).join(', ');
    const samples = named.flatMap((change) => change.samples.slice(0, 1).map((sample) => `${change.field}: ${showSample(sample)}`));
    lines.push(`${counts} (${NOT_READ_BACK_NOTE}), e.g. ${samples.slice(0, 3).join('; ')}`);
  }
  if (unknown !== undefined)
    lines.push(
      `${plural(unknown.count, 'listing')} changed in fields the service does not read back; ` +
        'which ones is unknown (their ledger entries predate per-field hashes; written now, later runs name the fields)',
    );
  return lines;
}

/** Per field, how many listings the plan changes, with samples (what a dry run is read for). */
function changeLines(changes: SyncSummary['changes']): string[] {
  const all = changes ?? [];
  return block('changes', [
    ...all
      .filter((change) => change.notReadBack !== true)
      .map((change) => `${change.field}: ${plural(change.count, 'listing')}, ${examples(change.samples, change.count)}`),
    ...notReadBackLine(all.filter((change) => change.notReadBack === true)),
  ]);
}

const VERDICT_TEXT = { refused: 'REFUSED (see the guard)', allowed: 'allowed by --allow-wipe', within: 'within --max-wipes' } as const;

/** Each field the plan would empty on held values, with the guard's verdict (a refused one's samples are in its reason). */
function wipeLines(wipes: SyncSummary['wipes']): string[] {
  return block(
    'wipes',
    (wipes?.fields ?? []).map((wipe) => {
      const head =
        `${wipe.field}: emptied on ${n(wipe.count)} of the ${plural(wipe.holders, 'listing')} that hold it, ` + VERDICT_TEXT[wipe.verdict];
      return wipe.verdict === 'refused' ? head : `${head}; ${examples(wipe.samples, wipe.count)}`;
    }),
  );
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

/** The plan and the guard's verdict: what a waiting command shows as soon as the plan exists. */
export function planLines(summary: SyncSummary): string[] {
  const { plan, guard } = summary;
  return [
    `plan    create ${n(plan.create)}, update ${n(plan.update)}, delete ${n(plan.delete)}, unchanged ${n(plan.unchanged)}` +
      (plan.held > 0 ? `, held ${n(plan.held)} (rejected rows: left as they are)` : '') +
      (plan.adopted ? `; ${n(plan.adopted)} unchanged ${plan.adopted === 1 ? 'listing' : 'listings'} adopted into the ledger` : ''),
    ...(plan.deletesWithheld ? [`          deletes withheld: ${plan.deletesWithheld.reason}`] : []),
    ...changeLines(summary.changes),
    `guard   ${guard.ok ? (guard.forced ? 'FORCED past the guard' : 'ok') : 'REFUSED: nothing was changed'}`,
    ...guard.reasons.map((reason) => `          ${reason}`),
  ];
}

/** Counts by field and reason, when the rows shown are not all of them (the most frequent REJECTED_KINDS_SHOWN). */
function rejectedByLines(feed: SyncSummary['feed']): string[] {
  const counts = feed.rejectedBy ?? [];
  if (feed.rejected <= REJECTED_SHOWN || counts.length === 0) return [];
  const shown = counts.slice(0, REJECTED_KINDS_SHOWN).map((c) => `          ${n(c.count)} × ${c.reason}`);
  const more =
    counts.length > REJECTED_KINDS_SHOWN ? [`          … and ${n(counts.length - REJECTED_KINDS_SHOWN)} more kinds of reason`] : [];
  return ['          rejected by field and reason:', ...shown, ...more];
}

export function formatSummary(summary: SyncSummary, rejected: readonly RejectedRow[] = []): string {
  if (summary.shape?.stage === 'header' && !summary.guard.ok) return refusedAtHeader(summary);
  const { feed, remote } = summary;
  const lines = [
    `run ${summary.runId} · chatbot ${summary.chatbot}${summary.dryRun ? ' · dry run (nothing was changed)' : ''}`,
    `feed    ${plural(feed.rows, 'row')}: ${n(feed.valid)} valid, ` +
      `${n(feed.rejected)} rejected (${plural(feed.duplicates, 'duplicate')}), ` +
      `${n(feed.excluded)} excluded${filled(feed.filledDefaults)}${leftEmpty(feed.leftEmpty)}` +
      (feed.outsideFilter === undefined ? '' : `; ${n(feed.outsideFilter)} more outside the chatbot's where`),
    ...rejected.slice(0, REJECTED_SHOWN).map((row) => `          line ${row.line}: ${row.reason}`),
    ...(feed.rejected > REJECTED_SHOWN ? [`          … and ${n(feed.rejected - REJECTED_SHOWN)} more rejected rows (see --report)`] : []),
    ...rejectedByLines(feed),
    `remote  ${plural(remote.listings, 'listing')} (VirtualCount ${n(remote.virtualCount)}), ` +
      `${remote.complete ? 'complete' : 'INCOMPLETE'}, ${plural(remote.duplicates, 'duplicated key')}, ${n(remote.unkeyed)} ` +
      `without a key`,
    ...remote.incompleteReasons.map((reason) => `          ${reason}`),
    ...planLines(summary),
    ...wipeLines(summary.wipes),
    ...displayLines(summary.display),
    ...acceptedShape(summary),
  ];
  if (summary.jobs !== undefined) lines.push(`jobs    ${n(summary.jobs)} enqueued`);
  if (summary.result) {
    const r = summary.result;
    lines.push(
      `result  created ${n(r.created)}, updated ${n(r.updated)}, deleted ${n(r.deleted)}, failed ` +
        `${n(r.failed)}${r.superseded ? `, superseded ${n(r.superseded)}` : ''}${r.retried ? `, retried ${n(r.retried)}` : ''}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
