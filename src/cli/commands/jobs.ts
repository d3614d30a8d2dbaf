/** `listing-sync jobs failed|retry|find|resume`: failed jobs, re-queueing, search by key, resuming a paused queue. */
import type { Command } from 'commander';
import { UsageError } from '../../shared/errors.js';
import type { KeyJobRow } from '../../queue/failed-jobs.js';
import { findKeyJobs, listFailedJobs, retryJobs } from '../../queue/failed-jobs.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { addSharedFlags, WORKER_LIMIT_FLAGS } from '../input/shared-flags.js';
import { plural } from '../../shared/counts.js';
import { noWorkerNotice, writeWorkersAlive } from '../../sync/worker-notice.js';
import { resumeRun, type ResumeFlags } from './run-control.js';
import { failedJobsTable } from '../output/format-failed-jobs.js';
import { when } from '../output/format-run.js';
import type { CommandHost, RegisterCommands } from '../host.js';
import { printJson } from '../io.js';
import { addRedisOptions, withQueue, withQueueConfig, type RedisFlags } from '../wiring/with-queue.js';

/** One job that touched the key, as `jobs find` prints it: time, run, chatbot, job, state, reason. */
function keyJobLine(r: KeyJobRow): string {
  return [when(r.at), r.runId, r.chatbot, r.jobId, r.state, r.failedReason ?? ''].join('  ').trimEnd();
}
interface RetryFlags extends ResumeFlags {
  run?: string;
  all?: boolean;
}

type Retried = Awaited<ReturnType<typeof retryJobs>>;

/** What a retry did, and when no worker runs on the prefix, that the jobs wait for one and the command that starts it. */
function retriedLines(retried: Retried, alive: number | undefined, prefix: string, runId: string | undefined): string {
  const lines = [
    `re-queued ${plural(retried.retried.length, 'job')}${retried.skipped.length ? `; not failed jobs: ${retried.skipped.join(', ')}` : ''}`,
  ];
  if (retried.retried.length > 0 && alive === 0) lines.push(noWorkerNotice(prefix, runId));
  return `${lines.join('\n')}\n`;
}

/**
 * `jobs retry`. Exit 0 when every job named was re-queued, also when no worker runs (the jobs are
 * safely in the queue; the notice says what they wait for); 1 when some named ids were not failed
 * jobs. With --work (and --run), the run's exit code once its retried jobs finished here.
 */
async function retryCommand(host: CommandHost, jobIds: string[], flags: RetryFlags): Promise<void> {
  const ways = [jobIds.length > 0, flags.run !== undefined, flags.all === true].filter(Boolean).length;
  if (flags.work === true) {
    await host.run(async () => {
      if (ways !== 1 || flags.run === undefined) throw new UsageError('--work retries the jobs of one run: use it with --run ID alone');
      const runId = flags.run;
      return await resumeRun(host, runId, flags, async (deps) => {
        const result = await retryJobs(deps.writes, deps.store, { runId, all: false, jobIds: [] });
        if (flags.json !== true)
          host.io.stderr.write(`re-queued ${plural(result.retried.length, 'job')} of run ${runId}; working them here\n`);
      });
    });
    return;
  }
  await withQueueConfig(host, flags, async (ctx, config, json): Promise<ExitCode> => {
    if (ways !== 1) throw new UsageError('say which jobs to retry: --run ID, --all, or job ids (exactly one of them)');
    const which = { ...(flags.run ? { runId: flags.run } : {}), all: flags.all === true, jobIds };
    const result = await retryJobs(ctx.queues.writes, ctx.store, which);
    const alive = result.retried.length > 0 ? await writeWorkersAlive(ctx.queues.writes) : undefined;
    if (json) printJson(host.io, { ...result, ...(alive === undefined ? {} : { workers: alive }) });
    else host.io.stdout.write(retriedLines(result, alive, config.redis.prefix, flags.run));
    return result.skipped.length > 0 ? EXIT.failed : EXIT.ok;
  });
}

export const registerJobsCommands: RegisterCommands = (program: Command, host: CommandHost) => {
  const jobs = program.command('jobs').description('failed jobs, retries, and jobs by listing key');
  addRedisOptions(jobs.command('failed').description('failed jobs with chatbot, key, attempts and the last Code/Message'))
    .option('--run <id>', 'only jobs of this run')
    .action((flags: RedisFlags & { run?: string }) =>
      withQueue(host, flags, async (ctx, json) => {
        const rows = await listFailedJobs(ctx.queues.writes, ctx.store, flags.run);
        if (json) printJson(host.io, { failed: rows });
        else host.io.stdout.write(failedJobsTable(rows, flags.run));
        return rows.length > 0 ? EXIT.failed : EXIT.ok;
      }),
    );
  const retry = addRedisOptions(
    jobs
      .command('retry')
      .argument('[jobIds...]', 'ids of failed jobs')
      .description('re-queue failed jobs (--run ID | --all | JOBID...); --work: run them in this process'),
  )
    .option('--run <id>', 'every failed job of this run')
    .option('--all', 'every failed job')
    .option('--work', "with --run: work the retried jobs in this process and print the run's result");
  addSharedFlags(retry, ['apiBaseUrl']);
  addSharedFlags(retry, WORKER_LIMIT_FLAGS, { when: 'with --work' }).action((jobIds: string[], flags: RetryFlags) =>
    retryCommand(host, jobIds, flags),
  );
  addRedisOptions(
    jobs.command('find').argument('<key>', 'listing key (MLS number or URL)').description('every job and run that touched a listing key'),
  )
    .option('--chatbot <serial>', 'only this chatbot')
    .action((key: string, flags: RedisFlags & { chatbot?: string }) =>
      withQueue(host, flags, async (ctx, json) => {
        const rows = await findKeyJobs(ctx.queues.writes, ctx.store, key, flags.chatbot);
        if (json) printJson(host.io, { key, jobs: rows });
        else host.io.stdout.write(rows.length === 0 ? `no job touched ${key}\n` : `${rows.map(keyJobLine).join('\n')}\n`);
      }),
    );
  addRedisOptions(
    jobs.command('resume').description('resume the write queue after it was paused (an authentication failure pauses it)'),
  ).action((flags: RedisFlags) =>
    withQueue(host, flags, async (ctx, json) => {
      await ctx.queues.writes.resume();
      if (json) printJson(host.io, { resumed: true });
      else host.io.stdout.write('write queue resumed\n');
    }),
  );
};
