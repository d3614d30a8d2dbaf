/**
 * `listing-sync sync`: read the feed and the chatbot, plan, guard, and (unless --dry-run)
 * enqueue; `--wait` waits for the run's jobs, `--work` also runs workers in this process.
 */
import type { Command } from 'commander';
import type { ConfigFlags } from '../../config/config.js';
import { formatSummary, planLines } from '../../sync/format-summary.js';
import type { SyncSummary } from '../../store/run-summary.js';
import { openReportFile } from '../../sync/report-file.js';
import { runSync } from '../../sync/run-sync.js';
import type { SyncDeps } from '../../sync/sync-deps.js';
import { resultOf, syncVerdict } from '../../sync/run-verdict.js';
import type { SyncOutcome } from '../../sync/summary.js';
import type { SyncRequest } from '../../sync/sync-request.js';
import { EXIT, exitCodeOfVerdict, type ExitCode } from '../exit-codes.js';
import type { CommandHost, RegisterCommands } from '../host.js';
import { printJson, sameDestination, type CliIo } from '../io.js';
import { durationMs } from '../input/option-values.js';
import { createProgressBars } from '../output/progress.js';
import { withoutShown } from '../output/shown-once.js';
import { syncDeps } from '../wiring/queue-wiring.js';
import { enqueueRouteOf } from '../wiring/enqueue-route.js';
import { waitForRunInCli } from '../wiring/run-waiting.js';
import { addSharedFlags, MEDIA_FLAGS, WORKER_LIMIT_FLAGS } from '../input/shared-flags.js';
import { heapPolicyPays, keepHeapNearLive } from '../wiring/heap-growth.js';
import { addSyncOptions, toSyncRequest, type RawSyncOptions } from '../input/sync-options.js';
import { idleHints, openSyncSession, type SyncSession } from '../wiring/sync-session.js';
import { cutShortLine, replicationLine } from '../output/format-replication.js';
import { photosLine } from '../output/format-photos.js';
import { announceRun } from '../wiring/run-alerts.js';

/** `--wait-for-lock` without a value. */
const DEFAULT_WAIT_FOR_LOCK = '30m';

interface SyncFlags extends RawSyncOptions, ConfigFlags {
  dryRun: boolean;
  waitForLock?: string | true;
  timeout?: string;
  json?: boolean;
  report?: string;
  wait?: boolean;
  work?: boolean;
  acceptShape?: boolean;
}

/** What is printed at the end: the outcome without its plan. */
type PrintedOutcome = Pick<SyncOutcome, 'summary' | 'rejected' | 'replication' | 'photosLinked'>;

/** The summary, less the lines the progress display already showed on the same screen (`shown`). */
function printOutcome(io: CliIo, json: boolean | undefined, outcome: PrintedOutcome, shown: readonly string[]): void {
  const { replication } = outcome;
  if (json) printJson(io, replication === undefined ? outcome.summary : { ...outcome.summary, replication });
  else {
    const summary = formatSummary(outcome.summary, outcome.rejected);
    const text = sameDestination(io) ? withoutShown(summary, shown) : summary;
    const { photos: counts } = outcome.summary;
    const photos = counts !== undefined || outcome.photosLinked === true ? photosLine(counts) : '';
    io.stdout.write(`${text}${replication === undefined ? '' : replicationLine(replication)}${photos}`);
  }
}

/**
 * Runs the sync with the --report written inside it (the plan is spooled to a temp file that
 * runSync closes once the sync is decided), and returns what is printed.
 */
async function syncAndReport(deps: SyncDeps, request: SyncRequest, report: string | undefined): Promise<PrintedOutcome> {
  // Rejected rows are streamed to the report as they are read: the outcome keeps only the first ones.
  const file = report === undefined ? undefined : openReportFile(report, request.keyType);
  try {
    const planned = await runSync(
      { ...deps, ...(file === undefined ? {} : { report: (outcome) => file.write(outcome), onRejected: (row) => file.add(row) }) },
      request,
    );
    return {
      summary: planned.summary,
      rejected: planned.rejected,
      replication: planned.replication,
      ...(planned.photosLinked === true ? { photosLinked: true } : {}),
    };
  } finally {
    file?.close();
  }
}

/**
 * Where the sync's chunks go and at what pace: with --work to the session's enqueue thread,
 * paced by the session's own workers (enqueue-pace.ts), its progress on the jobs bar.
 */
/** Runs one sync in an open session, prints its summary, and returns the exit code it earned. */
export async function performSync(
  io: CliIo,
  session: SyncSession,
  request: SyncRequest,
  flags: Pick<SyncFlags, 'json' | 'report' | 'wait' | 'work'> & { timeoutMs?: number; largeFeed?: boolean },
): Promise<ExitCode> {
  const bars = createProgressBars(io, flags.json, session.logger);
  const { route, pace } = enqueueRouteOf(session, bars, flags.timeoutMs);
  const deps = {
    ...syncDeps(session.api, session.ctx, session.config, session.logger, { route, largeFeed: flags.largeFeed === true }),
    signal: session.signal,
    progress: {
      feed: (rows: number, bytes: number, total: number | undefined) => bars.feed(rows, bytes, total),
      remote: (read: number, total: number) => bars.update('remote', read, total),
      planned: (planned: SyncSummary) => {
        bars.finish('feed');
        bars.finish('remote');
        bars.note(planLines(planned));
      },
    },
  };
  const outcome = await syncAndReport(deps, request, flags.report).finally(() => session.enqueueThread?.close());
  const { summary } = outcome;
  const waiting = (flags.wait === true || flags.work === true) && !request.dryRun && summary.guard.ok;
  if (waiting) {
    const { counts, status } = await waitForRunInCli({
      store: session.ctx.store,
      runId: summary.runId,
      chatbot: request.chatbot,
      bars,
      logger: session.logger,
      signal: session.signal,
      ...(session.workers ? { workers: session.workers } : {}),
      ...idleHints(session),
      ...(flags.timeoutMs === undefined ? {} : { timeoutMs: flags.timeoutMs }),
      // Why from the first chunk: with a paced enqueue the run's jobs were already being worked.
      ...(pace?.startedAt() === undefined ? {} : { timeoutFrom: pace.startedAt() }),
    });
    summary.result = resultOf(counts);
    if (status !== undefined) summary.status = status;
    summary.finishedAt = new Date().toISOString();
  }
  await bars.stop();
  if (!request.dryRun) await announceRun(session, request.chatbot, summary.runId, session.workers !== undefined);
  printOutcome(io, flags.json, outcome, bars.shown());
  if (!waiting && summary.jobs !== undefined && !flags.json) io.stdout.write(`follow it with: listing-sync runs show ${summary.runId}\n`);
  const verdictCode = exitCodeOfVerdict(syncVerdict(summary));
  const cutShort = outcome.replication === undefined ? undefined : cutShortLine(outcome.replication);
  if (cutShort !== undefined) {
    // Why exit 1 although what was received is enqueued: the pull is not complete, and a scheduler must see it.
    io.stderr.write(`${cutShort}\n`);
    return verdictCode === EXIT.ok ? EXIT.failed : verdictCode;
  }
  return verdictCode;
}

/** `listing-sync sync`: validate every flag first, then open and sync (main.ts releases what was opened). */
async function executeSync(host: CommandHost, flags: SyncFlags): Promise<ExitCode> {
  // Validate every flag before opening anything: a bad flag changes nothing and sends nothing.
  const request = toSyncRequest(flags, { dryRun: flags.dryRun });
  const waitForLockMs =
    flags.waitForLock === undefined
      ? undefined
      : durationMs(flags.waitForLock === true ? DEFAULT_WAIT_FOR_LOCK : flags.waitForLock, '--wait-for-lock');
  const timeoutMs = flags.timeout === undefined ? undefined : durationMs(flags.timeout, '--timeout');
  if (waitForLockMs !== undefined) request.waitForLockMs = waitForLockMs;
  if (flags.acceptShape === true) request.acceptShape = true;
  const work = flags.work === true && !flags.dryRun;
  const largeFeed = await heapPolicyPays(request.feed.source, request.replicate !== undefined);
  if (work && largeFeed) keepHeapNearLive();
  const session = await openSyncSession(host.io, flags, work, work);
  return await performSync(host.io, session, request, { ...flags, largeFeed, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
}

export const registerSyncCommands: RegisterCommands = (program: Command, host: CommandHost) => {
  const sync = addSyncOptions(program.command('sync').description("make a chatbot's listings equal to a feed (plan, guard, enqueue)"))
    .option('--dry-run', 'plan and report only: nothing is enqueued or sent', false)
    .option('--wait', 'wait until every job of the run completed or failed for good, then print the result')
    .option('--work', 'also run workers in this process (implies --wait): one command migrates an inventory')
    .option(
      '--wait-for-lock [duration]',
      `when another run holds the chatbot, wait for it to end (default ${DEFAULT_WAIT_FOR_LOCK}; e.g. 90s, 10m, 2h) instead of refusing`,
    )
    .option('--timeout <duration>', 'with --wait/--work: stop waiting after this long (the run goes on in the queue; exit 1)')
    .option('--report <file>', 'write the whole plan and every rejected row (JSON, or CSV when the name ends in .csv)')
    .option('--accept-shape', 'go on once although the feed lost a column (or its values) since the last run, and record its new shape');
  addSharedFlags(sync, ['json', 'apiBaseUrl', 'redisUrl', 'redisClusterNodes', 'prefix'], { json: 'the summary' });
  addSharedFlags(sync, ['feedTimeout']);
  addSharedFlags(sync, MEDIA_FLAGS);
  addSharedFlags(sync, WORKER_LIMIT_FLAGS, { when: 'with --work' });
  addSharedFlags(sync, ['logLevel']).action((flags: SyncFlags) => host.run(() => executeSync(host, flags)));
};
