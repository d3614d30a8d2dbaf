/** What `fleet run` prints: one line per chatbot of the source (plus its refusal or failure), and a total. */
import type { FleetPullFigures } from '../../sync/fleet-run.js';
import type { ReplicationOutcome } from '../../sync/replication.js';
import type { SyncSummary } from '../../store/run-summary.js';
import type { ExitCode } from '../exit-codes.js';
import { count as n, plural } from '../../shared/counts.js';
import { photosLine } from './format-photos.js';

/** One chatbot's part of the fan-out as printed and as --json gives it. */
export interface FleetRunLine {
  chatbot: string;
  exitCode: ExitCode;
  runId?: string;
  summary?: SyncSummary;
  /** Why the sync ended without a summary (the error's one line). */
  error?: string;
  /** Why the pull was cut short (the request budget), for this chatbot's run. */
  halted?: string;
  /** How this chatbot's replicating run ended (a replicated source): its status, sweep, watermark and sequence. */
  replication?: ReplicationOutcome;
}

const VERDICT: Readonly<Record<ExitCode, string>> = { 0: 'ok', 1: 'FAILED', 2: 'FAILED (usage)', 3: 'REFUSED' };

function planText(summary: SyncSummary): string {
  const { plan, feed } = summary;
  const outside = feed.outsideFilter === undefined ? '' : `, ${n(feed.outsideFilter)} outside its where`;
  const done =
    summary.result === undefined
      ? ''
      : ` · done: ${n(summary.result.created)} created, ${n(summary.result.updated)} updated, ` +
        `${n(summary.result.deleted)} deleted, ${n(summary.result.failed)} failed`;
  const planned = `plan +${n(plan.create)} ~${n(plan.update)} -${n(plan.delete)} =${n(plan.unchanged)}`;
  return `${plural(feed.valid, 'listing')} in view${outside} · ${planned}${done}`;
}

function chatbotLines(line: FleetRunLine): string[] {
  const head = `${line.chatbot}: ${VERDICT[line.exitCode]}`;
  if (line.summary === undefined) return [`${head} · ${line.error ?? 'no run'}`];
  const dry = line.summary.dryRun ? ' · dry run' : '';
  return [
    `${head} · run ${line.summary.runId}${dry} · ${planText(line.summary)}`,
    ...line.summary.guard.reasons.map((reason) => `    ${reason}`),
    ...(line.summary.photos === undefined ? [] : [`    ${photosLine(line.summary.photos).trimEnd()}`]),
    ...(line.halted === undefined ? [] : [`    ${line.halted}`]),
  ];
}

/** How the one pull read the source: since a watermark, everything, or its EntityEvent log (events, or a resync). */
function pullHow(pull: FleetPullFigures): string {
  const { events } = pull;
  if (events === undefined) return `pulled once${pull.since === undefined ? ' (everything)' : ` since ${pull.since}`}`;
  if (events.mode === 'resync') return `EntityEvent, full resync (${events.reason ?? 'resync'}) once for all`;
  const named = `${plural(events.events ?? 0, 'event')} naming ${plural(events.listings ?? 0, 'listing')}, ${events.gone ?? 0} gone`;
  return `EntityEvent, read once after sequence ${events.after ?? '-'}: ${named}`;
}

/** The whole report: the pull (a replicated source), each chatbot, and the total with the exit code. */
export function fleetRunText(source: string, pull: FleetPullFigures | undefined, lines: readonly FleetRunLine[], code: ExitCode): string {
  const pulled =
    pull === undefined
      ? `source ${source}: read by each chatbot's sync`
      : `source ${source}: ${pullHow(pull)}: ` +
        `${plural(pull.records, 'record')}, ${plural(pull.requests, 'request')}, ${plural(pull.bytes, 'byte')}`;
  const count = (exit: ExitCode): number => lines.filter((line) => line.exitCode === exit).length;
  const total =
    `${plural(lines.length, 'chatbot')}: ${n(count(0))} ok, ${n(count(3))} refused, ` + `${n(count(1) + count(2))} failed · exit ${code}`;
  return `${[pulled, ...lines.flatMap(chatbotLines), total].join('\n')}\n`;
}
