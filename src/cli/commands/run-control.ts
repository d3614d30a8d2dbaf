/**
 * `runs cancel ID` and `runs resume ID [--work]`: the two ways on when a run holds its chatbot.
 * Cancel stops the run's remaining jobs and frees the chatbot; resume finishes an interrupted run
 * (Ctrl-C or a crash of `sync --work`) with this process's workers and the progress bar, and
 * exits with the run's result.
 */
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { acquireChatbot } from '../../queue/chatbot-lease.js';
import { cancelRun } from '../../queue/cancel-run.js';
import { reconcileRun } from '../../queue/reconcile-run.js';
import { isFinalStatus, type RunRecord } from '../../store/run-types.js';
import { formatSummary } from '../../sync/format-summary.js';
import type { SyncSummary } from '../../sync/summary.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { CommandHost } from '../host.js';
import { printJson, type CliIo } from '../io.js';
import { durationMs } from '../option-values.js';
import { createProgressBars } from '../progress.js';
import { waitForRunInCli, type RunWait } from '../run-waiting.js';
import { openSyncSession, resultOf, syncExitCode, type SyncSession } from './sync.js';
import { addRedisOptions, withQueue, type RedisFlags } from './queue.js';
import { hostname } from 'node:os';

interface ResumeFlags extends RedisFlags {
  work?: boolean;
  timeout?: string;
  apiBaseUrl?: string;
  concurrency?: string;
  globalConcurrency?: string;
  rate?: string;
}

/** A stored run summary that came from a sync (chatbot edits store another shape). */
function syncSummaryOf(run: RunRecord): SyncSummary | undefined {
  const summary = run.summary as Partial<SyncSummary> | null | undefined;
  return summary && typeof summary === 'object' && summary.guard !== undefined && summary.feed !== undefined ? (summary as SyncSummary) : undefined;
}

function printResumed(io: CliIo, json: boolean, run: RunRecord, waited: RunWait): ExitCode {
  const result = resultOf(waited.counts);
  const summary: SyncSummary | undefined = syncSummaryOf(run);
  const status = waited.status ?? run.status;
  if (summary !== undefined) {
    const finished: SyncSummary = { ...summary, result, status, finishedAt: new Date().toISOString() };
    if (json) printJson(io, finished);
    else io.stdout.write(formatSummary(finished));
    return syncExitCode(finished);
  }
  if (json) printJson(io, { runId: run.id, chatbot: run.chatbot, status, result });
  else io.stdout.write(`run ${run.id} · chatbot ${run.chatbot} · ${status}\nresult: ${JSON.stringify(result)}\n`);
  return result.failed > 0 || status === 'cancelled' || status === 'stuck' ? EXIT.failed : EXIT.ok;
}

/** Makes an interrupted run workable again and takes its chatbot for it. */
async function takeBack(session: SyncSession, run: RunRecord): Promise<void> {
  const { store, queues } = session.ctx;
  if (run.status === 'enqueuing') await reconcileRun(store, queues.writes, run.id, Date.now(), { staleLeaseMs: 30_000, inspectAfterMs: 0, stuckAfterMs: Number.POSITIVE_INFINITY });
  if (run.status === 'stuck') await store.runs.reopenStuck(run.id);
  // Re-entrant for the run's own lease, stale or not; refused when another run took the chatbot meanwhile.
  await acquireChatbot(store, queues.writes, { chatbot: run.chatbot, runId: run.id, holder: `${hostname()} pid ${process.pid} (resume)`, signal: session.signal });
}

async function resume(host: CommandHost, id: string, flags: ResumeFlags): Promise<ExitCode> {
  const timeoutMs = flags.timeout === undefined ? undefined : durationMs(flags.timeout, '--timeout');
  const session = await openSyncSession(host.io, flags, flags.work === true);
  try {
    const run = await session.ctx.store.runs.getRun(id);
    if (!run) throw new UsageError(`no run ${id} (see \`listing-sync runs list\`)`);
    if (isFinalStatus(run.status) && run.status !== 'stuck') {
      host.io.stderr.write(`listing-sync: run ${id} already ended (${run.status}); nothing to resume\n`);
      return run.status === 'done' ? EXIT.ok : EXIT.failed;
    }
    await takeBack(session, run);
    const bars = createProgressBars(host.io, flags.json);
    try {
      const waited = await waitForRunInCli({
        store: session.ctx.store, runId: run.id, chatbot: run.chatbot, bars, logger: session.logger, signal: session.signal,
        ...(session.workers ? { workers: session.workers } : {}),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      });
      bars.stop();
      return printResumed(host.io, flags.json === true, run, waited);
    } finally {
      bars.stop();
    }
  } finally {
    await session.close();
  }
}

/** Adds `cancel` and `resume` to the `runs` command. */
export function registerRunControl(runs: Command, host: CommandHost): void {
  addRedisOptions(runs.command('cancel').argument('<id>', 'run id').description('stop a run: remove its waiting jobs, let running ones finish, free its chatbot'))
    .action((id: string, flags: RedisFlags) =>
      withQueue(host, flags, async (ctx, json) => {
        const result = await cancelRun(ctx.store, ctx.queues.writes, id, Date.now());
        if (result === undefined) throw new UsageError(`no run ${id} (see \`listing-sync runs list\`)`);
        if (json) printJson(host.io, { runId: id, ...result });
        else if (result.status !== 'cancelled') host.io.stdout.write(`run ${id} had already ended (${result.status}); nothing to cancel\n`);
        else host.io.stdout.write(`run ${id} cancelled: ${result.removed} job(s) removed from the queue, ${result.running} left to finish; its chatbot is free\n`);
        return EXIT.ok;
      }),
    );
  addRedisOptions(runs.command('resume').argument('<id>', 'run id').description('finish an interrupted run: wait for it (--work: work its jobs in this process), then print its result'))
    .option('--work', 'run workers in this process (otherwise wait for workers elsewhere)')
    .option('--timeout <duration>', 'stop waiting after this long (the run goes on in the queue; exit 1)')
    .option('--api-base-url <url>', 'base URL of the service (env API_BASE_URL)')
    .option('--concurrency <n>', 'with --work: requests in flight from this process (env LISTING_SYNC_CONCURRENCY)')
    .option('--global-concurrency <n>', 'with --work: requests in flight across all workers (env LISTING_SYNC_GLOBAL_CONCURRENCY)')
    .option('--rate <n/s>', 'with --work: global cap on requests per second (env LISTING_SYNC_RATE)')
    .action((id: string, flags: ResumeFlags) => host.run(() => resume(host, id, flags)));
}
