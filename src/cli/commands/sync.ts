/**
 * `listing-sync sync`: read the feed and the chatbot, plan, guard, and (unless --dry-run)
 * enqueue; `--wait` waits for the run's jobs, `--work` also runs workers in this process.
 */
import type { Command } from 'commander';
import { ListingSyncError } from '../../errors.js';
import type { SyncOutcome, SyncSummary } from '../../sync/summary.js';
import { formatSummary } from '../../sync/format-summary.js';
import { writeReport } from '../../sync/report.js';
import { runSync, type SyncRequest } from '../../sync/run-sync.js';
import type { ApiClient } from '../../api/client-contract.js';
import type { Config, ConfigFlags } from '../../config.js';
import type { Logger } from '../../logger.js';
import type { RunningWorkers } from '../../queue/worker.js';
import type { RunCounts } from '../../store/run-types.js';
import { requireApiBase } from '../../config.js';
import { createCliLogger } from '../api-wiring.js';
import { configFromCli } from '../config-from-cli.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { CommandHost, RegisterCommands } from '../host.js';
import { printJson, type CliIo } from '../io.js';
import { createProgressBars } from '../progress.js';
import { waitForRunInCli } from '../run-waiting.js';
import { createRecordedClient, openQueueContext, startConfiguredWorkers, syncDeps, type QueueContext } from '../queue-wiring.js';
import { addSyncOptions, toSyncRequest, type RawSyncOptions } from '../sync-options.js';
import { durationMs } from '../option-values.js';

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
}

/** The exit code a finished sync earned (design: 0 done, 1 some jobs failed or the run did not complete, 3 refused). */
export function syncExitCode(summary: SyncSummary): ExitCode {
  if (!summary.guard.ok) return EXIT.refused;
  if ((summary.result?.failed ?? 0) > 0) return EXIT.failed;
  if (summary.status === 'cancelled' || summary.status === 'stuck') return EXIT.failed;
  return EXIT.ok;
}

export function resultOf(counts: RunCounts): NonNullable<SyncSummary['result']> {
  return {
    created: counts.created,
    updated: counts.updated,
    deleted: counts.deleted,
    failed: counts.failed,
    superseded: counts.superseded,
    retried: counts.retried,
  };
}

function printOutcome(io: CliIo, json: boolean | undefined, outcome: SyncOutcome): void {
  if (json) printJson(io, outcome.summary);
  else io.stdout.write(formatSummary(outcome.summary, outcome.rejected));
}

/** What a sync needs open while it runs: logger, client, Redis store/queues and maybe workers. */
export interface SyncSession {
  config: Config;
  logger: Logger;
  api: ApiClient;
  ctx: QueueContext;
  workers?: RunningWorkers;
  signal: AbortSignal;
  close(): Promise<void>;
}

/**
 * Opens what a sync needs; with `work` also starts this process's workers. A sync that works or
 * waits (`--work`, `--wait`) runs for long, so its Redis connection carries on through a Redis
 * restart ('session'); a plain enqueue fails fast. Either way Redis down at start is one line.
 */
export async function openSyncSession(io: CliIo, flags: ConfigFlags & { json?: boolean }, work: boolean): Promise<SyncSession> {
  const config = configFromCli(flags, io);
  requireApiBase(config);
  const logger = createCliLogger(config, io, flags.json === true);
  const abort = new AbortController();
  io.onShutdown(() => abort.abort(new ListingSyncError('INTERRUPTED', 'interrupted by a signal; nothing more is sent from this process')));
  const longLived = work || ('wait' in flags && flags.wait === true);
  const ctx = await openQueueContext(config, longLived ? 'session' : 'producer', logger);
  const client = createRecordedClient(config, logger, ctx.redis, { watch: ctx.watch });
  const { api } = client;
  let workers: RunningWorkers | undefined;
  try {
    workers = work ? await startConfiguredWorkers(config, api, ctx, logger, {}, abort.signal) : undefined;
  } catch (thrown) {
    await client.close();
    await ctx.close();
    throw thrown;
  }
  return {
    config, logger, api, ctx, signal: abort.signal,
    ...(workers ? { workers } : {}),
    async close() {
      await workers?.close();
      await client.close(); // flushes the last call metrics while Redis is still open
      await ctx.close();
    },
  };
}

/** Runs one sync in an open session, prints its summary, and returns the exit code it earned. */
export async function performSync(io: CliIo, session: SyncSession, request: SyncRequest, flags: Pick<SyncFlags, 'json' | 'report' | 'wait' | 'work'> & { timeoutMs?: number }): Promise<ExitCode> {
  const bars = createProgressBars(io, flags.json);
  try {
    const deps = {
      ...syncDeps(session.api, session.ctx, session.config, session.logger),
      signal: session.signal,
      progress: {
        feed: (_rows: number, bytes: number, total: number | undefined) => bars.update('feed', bytes, total ?? bytes),
        remote: (read: number, total: number) => bars.update('remote', read, total),
      },
    };
    const outcome: SyncOutcome = await runSync(deps, request);
    const { summary } = outcome;
    if (flags.report) await writeReport(flags.report, outcome);
    const waiting = (flags.wait === true || flags.work === true) && !request.dryRun && summary.guard.ok;
    if (waiting) {
      const { counts, status } = await waitForRunInCli({
        store: session.ctx.store, runId: summary.runId, chatbot: request.chatbot, bars, logger: session.logger, signal: session.signal,
        ...(session.workers ? { workers: session.workers } : {}),
        ...(flags.timeoutMs === undefined ? {} : { timeoutMs: flags.timeoutMs }),
      });
      summary.result = resultOf(counts);
      if (status !== undefined) summary.status = status;
      summary.finishedAt = new Date().toISOString();
    }
    bars.stop();
    printOutcome(io, flags.json, outcome);
    if (!waiting && summary.jobs !== undefined && !flags.json) io.stdout.write(`follow it with: listing-sync runs show ${summary.runId}\n`);
    return syncExitCode(summary);
  } finally {
    bars.stop();
  }
}

/** `listing-sync sync`: validate every flag first, then open, sync, close. */
async function executeSync(host: CommandHost, flags: SyncFlags): Promise<ExitCode> {
  // Validate every flag before opening anything: a bad flag changes nothing and sends nothing.
  const request = toSyncRequest(flags, { dryRun: flags.dryRun });
  const waitForLockMs = flags.waitForLock === undefined ? undefined : durationMs(flags.waitForLock === true ? DEFAULT_WAIT_FOR_LOCK : flags.waitForLock, '--wait-for-lock');
  const timeoutMs = flags.timeout === undefined ? undefined : durationMs(flags.timeout, '--timeout');
  if (waitForLockMs !== undefined) request.waitForLockMs = waitForLockMs;
  const session = await openSyncSession(host.io, flags, flags.work === true && !flags.dryRun);
  try {
    return await performSync(host.io, session, request, { ...flags, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
  } finally {
    await session.close();
  }
}

export const registerSyncCommands: RegisterCommands = (program: Command, host: CommandHost) => {
  addSyncOptions(program.command('sync').description('make a chatbot\'s listings equal to a feed (plan, guard, enqueue)'))
    .option('--dry-run', 'plan and report only: nothing is enqueued or sent', false)
    .option('--wait', 'wait until every job of the run completed or failed for good, then print the result')
    .option('--work', 'also run workers in this process (implies --wait): one command migrates an inventory')
    .option('--wait-for-lock [duration]', `when another run holds the chatbot, wait for it to end (default ${DEFAULT_WAIT_FOR_LOCK}; e.g. 90s, 10m, 2h) instead of refusing`)
    .option('--timeout <duration>', 'with --wait/--work: stop waiting after this long (the run goes on in the queue; exit 1)')
    .option('--report <file>', 'write the whole plan and every rejected row (JSON, or CSV when the name ends in .csv)')
    .option('--json', 'print the summary as one JSON object on stdout')
    .option('--api-base-url <url>', 'base URL of the service (env API_BASE_URL)')
    .option('--redis-url <url>', 'Redis URL (env REDIS_URL)')
    .option('--prefix <prefix>', 'BullMQ key prefix (env LISTING_SYNC_PREFIX)')
    .option('--concurrency <n>', 'with --work: requests in flight from this process (env LISTING_SYNC_CONCURRENCY)')
    .option('--global-concurrency <n>', 'with --work: requests in flight across all workers (env LISTING_SYNC_GLOBAL_CONCURRENCY)')
    .option('--rate <n/s>', 'with --work: global cap on requests per second (env LISTING_SYNC_RATE)')
    .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (env LOG_LEVEL)')
    .action((flags: SyncFlags) => host.run(() => executeSync(host, flags)));
};
