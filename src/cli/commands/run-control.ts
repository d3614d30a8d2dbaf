/**
 * `runs cancel ID` and `runs resume ID [--work]`: the two ways on when a run holds its chatbot.
 * Cancel stops the run's remaining jobs and frees the chatbot; resume finishes an interrupted run
 * (Ctrl-C or a crash of `sync --work`) with this process's workers and the progress bar, and
 * exits with the run's result.
 */
import type { Command } from 'commander';
import type { ConfigFlags } from '../../config/config.js';
import type { RunRecord } from '../../store/run-types.js';
import { formatSummary } from '../../sync/format-summary.js';
import { cancelRunNow, resumedRun, runHasEnded, runOrUsageError, takeBackRun, type RunControlDeps } from '../../sync/run-control.js';
import { requeuedJobs, waitForRequeued } from '../../sync/requeued-wait.js';
import { noWorkerNotice, writeWorkersAlive } from '../../sync/worker-notice.js';
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
import { count, plural } from '../../shared/counts.js';

export interface ResumeFlags extends RedisFlags, Pick<ConfigFlags, 'apiBaseUrl' | 'concurrency' | 'globalConcurrency' | 'rate'> {
  work?: boolean;
  timeout?: string;
}

function printResumed(io: CliIo, json: boolean, run: RunRecord, waited: RunWait): ExitCode {
  const resumed = resumedRun(run, waited.counts, waited.status);
  if (resumed.kind === 'sync') {
    if (json) printJson(io, resumed.summary);
    else io.stdout.write(formatSummary(resumed.summary));
    return exitCodeOfVerdict(resumed.verdict);
  }
  // A run that did not come from a sync (a bulk chatbot edit): its counts are all there is to say.
  const { result, status } = resumed;
  if (json) printJson(io, { runId: run.id, chatbot: run.chatbot, status, result });
  else io.stdout.write(`run ${run.id} · chatbot ${run.chatbot} · ${status}\nresult: ${JSON.stringify(result)}\n`);
  return exitCodeOfVerdict(resumed.verdict);
}

/** What `resume` found before any worker of this process started: the run, and its retried jobs not finished again. */
interface RunAtStart {
  run: RunRecord;
  requeued: number;
}

/**
 * Waits for the jobs of an ended run that were retried since, then prints the run as it ends now.
 * Why apart from the wait on counts: an ended run's record counts those jobs as finished.
 */
async function finishRetried(host: CommandHost, session: SyncSession, start: RunAtStart, json: boolean): Promise<ExitCode> {
  const deps = { store: session.ctx.store, writes: session.ctx.queues.writes };
  const bars = createProgressBars(host.io, json, session.logger);
  if (session.workers === undefined) {
    const alive = await writeWorkersAlive(deps.writes);
    if (alive === 0) session.logger.warn({ runId: start.run.id }, noWorkerNotice(session.config.redis.prefix, start.run.id));
  }
  await waitForRequeued(deps, start.run.id, {
    signal: session.signal,
    onProgress: (left) => bars.update('jobs', start.requeued - left, start.requeued),
  });
  await bars.stop();
  const run = await runOrUsageError(deps.store, start.run.id);
  const counts = await deps.store.runs.runCounts(run.id);
  return printResumed(host.io, json, run, { counts, status: run.status });
}

/**
 * Finishes run `id` (`runs resume`, `jobs retry --run ID --work`): an interrupted run is taken back
 * and waited for; an ended run with retried jobs waits for those. `before` runs first, before any
 * worker of this process starts (the retry of `jobs retry --work`).
 */
export async function resumeRun(
  host: CommandHost,
  id: string,
  flags: ResumeFlags,
  before?: (deps: RunControlDeps) => Promise<void>,
): Promise<ExitCode> {
  const timeoutMs = flags.timeout === undefined ? undefined : durationMs(flags.timeout, '--timeout');
  let start: RunAtStart | undefined;
  const session = await openSyncSession(host.io, flags, flags.work === true, false, async (ctx) => {
    const deps = { store: ctx.store, writes: ctx.queues.writes };
    const run = await runOrUsageError(ctx.store, id);
    await before?.(deps);
    start = { run, requeued: runHasEnded(run) ? await requeuedJobs(deps, id) : 0 };
  });
  if (start === undefined) throw new Error('the run was not read before the workers started');
  const { run } = start;
  if (runHasEnded(run)) {
    if (start.requeued > 0) return await finishRetried(host, session, start, flags.json === true);
    const next = run.status === 'failed' ? `: retry its failed jobs with \`listing-sync jobs retry --run ${id} --work\`` : '';
    host.io.stderr.write(`listing-sync: run ${id} already ended (${run.status}); nothing to resume${next}\n`);
    return run.status === 'done' ? EXIT.ok : EXIT.failed;
  }
  await takeBackRun({ store: session.ctx.store, writes: session.ctx.queues.writes }, run, session.signal);
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
      const result = await cancelRunNow({ store: ctx.store, writes: ctx.queues.writes }, id);
      if (json) printJson(host.io, { runId: id, ...result });
      else if (result.status !== 'cancelled') host.io.stdout.write(`run ${id} had already ended (${result.status}); nothing to cancel\n`);
      else
        host.io.stdout.write(
          `run ${id} cancelled: ${plural(result.removed, 'job')} removed from the queue, ` +
            `${count(result.running)} left to finish; its chatbot is free\n`,
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
    host.run(() => resumeRun(host, id, flags)),
  );
}
