/**
 * `runs cancel ID` and `runs resume ID [--work]`: the two ways on when a run holds its chatbot.
 * Cancel stops the run's remaining jobs and frees the chatbot; resume finishes an interrupted run
 * (Ctrl-C or a crash of `sync --work`) with this process's workers and the progress bar, and
 * exits with the run's result.
 */
import type { Command } from 'commander';
import type { ConfigFlags } from '../../config/config.js';
import { UsageError } from '../../shared/errors.js';
import { acquireChatbot } from '../../queue/chatbot-lease.js';
import { cancelRun } from '../../queue/cancel-run.js';
import { reconcileRun } from '../../queue/reconcile-run.js';
import { syncSummaryOf, type SyncSummary } from '../../store/run-summary.js';
import { isFinalStatus, type RunRecord } from '../../store/run-types.js';
import { formatSummary } from '../../sync/format-summary.js';
import { jobsVerdict, resultOf, syncVerdict } from '../../sync/run-verdict.js';
import { processHolder } from '../../sync/sync-lease.js';
import { EXIT, exitCodeOfVerdict, type ExitCode } from '../exit-codes.js';
import type { CommandHost } from '../host.js';
import { printJson, type CliIo } from '../io.js';
import { durationMs } from '../input/option-values.js';
import { createProgressBars } from '../output/progress.js';
import { announceRun } from '../wiring/run-alerts.js';
import { waitForRunInCli, type RunWait } from '../wiring/run-waiting.js';
import { addSharedFlags, WORKER_LIMIT_FLAGS } from '../input/shared-flags.js';
import { idleHints, openSyncSession, type SyncSession } from '../wiring/sync-session.js';
import { addRedisOptions, withQueue, type RedisFlags } from '../wiring/with-queue.js';

interface ResumeFlags extends RedisFlags, Pick<ConfigFlags, 'apiBaseUrl' | 'concurrency' | 'globalConcurrency' | 'rate'> {
  work?: boolean;
  timeout?: string;
}

function printResumed(io: CliIo, json: boolean, run: RunRecord, waited: RunWait): ExitCode {
  const result = resultOf(waited.counts);
  const summary = syncSummaryOf(run.summary);
  const status = waited.status ?? run.status;
  if (summary !== undefined) {
    const finished: SyncSummary = { ...summary, result, status, finishedAt: new Date().toISOString() };
    if (json) printJson(io, finished);
    else io.stdout.write(formatSummary(finished));
    return exitCodeOfVerdict(syncVerdict(finished));
  }
  // A run that did not come from a sync (a bulk chatbot edit): its counts are all there is to say.
  if (json) printJson(io, { runId: run.id, chatbot: run.chatbot, status, result });
  else io.stdout.write(`run ${run.id} · chatbot ${run.chatbot} · ${status}\nresult: ${JSON.stringify(result)}\n`);
  return exitCodeOfVerdict(jobsVerdict(result, status));
}

/** Makes an interrupted run workable again and takes its chatbot for it. */
async function takeBack(session: SyncSession, run: RunRecord): Promise<void> {
  const { store, queues } = session.ctx;
  if (run.status === 'enqueuing')
    await reconcileRun(store, queues.writes, run.id, Date.now(), {
      staleLeaseMs: 30_000,
      inspectAfterMs: 0,
      stuckAfterMs: Number.POSITIVE_INFINITY,
    });
  if (run.status === 'stuck') await store.runs.reopenStuck(run.id);
  // Re-entrant for the run's own lease, stale or not; refused when another run took the chatbot meanwhile.
  await acquireChatbot(store, queues.writes, {
    chatbot: run.chatbot,
    runId: run.id,
    holder: processHolder('resume'),
    signal: session.signal,
  });
}

async function resume(host: CommandHost, id: string, flags: ResumeFlags): Promise<ExitCode> {
  const timeoutMs = flags.timeout === undefined ? undefined : durationMs(flags.timeout, '--timeout');
  const session = await openSyncSession(host.io, flags, flags.work === true);
  const run = await session.ctx.store.runs.getRun(id);
  if (!run) throw new UsageError(`no run ${id} (see \`listing-sync runs list\`)`);
  if (isFinalStatus(run.status) && run.status !== 'stuck') {
    host.io.stderr.write(`listing-sync: run ${id} already ended (${run.status}); nothing to resume\n`);
    return run.status === 'done' ? EXIT.ok : EXIT.failed;
  }
  await takeBack(session, run);
  const bars = createProgressBars(host.io, flags.json, session.logger);
  const waited = await waitForRunInCli({
    store: session.ctx.store,
    runId: run.id,
    chatbot: run.chatbot,
    bars,
    logger: session.logger,
    signal: session.signal,
    ...(session.workers ? { workers: session.workers } : {}),
    ...idleHints(session),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
  await bars.stop();
  await announceRun(session, run.chatbot, run.id, session.workers !== undefined);
  return printResumed(host.io, flags.json === true, run, waited);
}

/** Adds `cancel` and `resume` to the `runs` command. */
export function registerRunControl(runs: Command, host: CommandHost): void {
  addRedisOptions(
    runs
      .command('cancel')
      .argument('<id>', 'run id')
      .description('stop a run: remove its waiting jobs, let running ones finish, free its chatbot'),
  ).action((id: string, flags: RedisFlags) =>
    withQueue(host, flags, async (ctx, json) => {
      const result = await cancelRun(ctx.store, ctx.queues.writes, id, Date.now());
      if (result === undefined) throw new UsageError(`no run ${id} (see \`listing-sync runs list\`)`);
      if (json) printJson(host.io, { runId: id, ...result });
      else if (result.status !== 'cancelled') host.io.stdout.write(`run ${id} had already ended (${result.status}); nothing to cancel\n`);
      else
        host.io.stdout.write(
          `run ${id} cancelled: ${result.removed} job(s) removed from the queue, ${result.running} left to finish; its chatbot is free\n`,
        );
      return EXIT.ok;
    }),
  );
  const resumeCommand = addRedisOptions(
    runs
      .command('resume')
      .argument('<id>', 'run id')
      .description('finish an interrupted run: wait for it (--work: work its jobs in this process), then print its result'),
  )
    .option('--work', 'run workers in this process (otherwise wait for workers elsewhere)')
    .option('--timeout <duration>', 'stop waiting after this long (the run goes on in the queue; exit 1)');
  addSharedFlags(resumeCommand, ['apiBaseUrl']);
  addSharedFlags(resumeCommand, WORKER_LIMIT_FLAGS, { when: 'with --work' }).action((id: string, flags: ResumeFlags) =>
    host.run(() => resume(host, id, flags)),
  );
}
