/** `listing-sync jobs failed|retry|find|resume`: failed jobs, re-queueing, search by key, resuming a paused queue. */
import type { Command } from 'commander';
import { UsageError } from '../../shared/errors.js';
import type { KeyJobRow } from '../../queue/failed-jobs.js';
import { findKeyJobs, listFailedJobs, retryJobs } from '../../sync/failed-jobs.js';
import { EXIT } from '../exit-codes.js';
import { when } from '../output/format-run.js';
import type { CommandHost, RegisterCommands } from '../host.js';
import { printJson } from '../io.js';
import { addRedisOptions, withQueue, type RedisFlags } from '../wiring/with-queue.js';

/** One job that touched the key, as `jobs find` prints it: time, run, chatbot, job, state, reason. */
function keyJobLine(r: KeyJobRow): string {
  return [when(r.at), r.runId, r.chatbot, r.jobId, r.state, r.failedReason ?? ''].join('  ').trimEnd();
}
export const registerJobsCommands: RegisterCommands = (program: Command, host: CommandHost) => {
  const jobs = program.command('jobs').description('failed jobs, retries, and jobs by listing key');
  addRedisOptions(jobs.command('failed').description('failed jobs with chatbot, key, attempts and the last Code/Message'))
    .option('--run <id>', 'only jobs of this run')
    .action((flags: RedisFlags & { run?: string }) =>
      withQueue(host, flags, async (ctx, json) => {
        const rows = await listFailedJobs(ctx.queues.writes, ctx.store, flags.run);
        if (json) printJson(host.io, { failed: rows });
        else
          host.io.stdout.write(
            rows.length === 0
              ? 'no failed jobs\n'
              : `${rows.map((r) => `${r.jobId}  ${r.chatbot}  ${r.key}  attempts ${r.attempts}  ${r.code}: ${r.message}`).join('\n')}\n`,
          );
        return rows.length > 0 ? EXIT.failed : EXIT.ok;
      }),
    );
  addRedisOptions(
    jobs.command('retry').argument('[jobIds...]', 'ids of failed jobs').description('re-queue failed jobs (--run ID | --all | JOBID...)'),
  )
    .option('--run <id>', 'every failed job of this run')
    .option('--all', 'every failed job')
    .action((jobIds: string[], flags: RedisFlags & { run?: string; all?: boolean }) =>
      withQueue(host, flags, async (ctx, json) => {
        const ways = [jobIds.length > 0, flags.run !== undefined, flags.all === true].filter(Boolean).length;
        if (ways !== 1) throw new UsageError('say which jobs to retry: --run ID, --all, or job ids (exactly one of them)');
        const result = await retryJobs(ctx.queues.writes, ctx.store, {
          ...(flags.run ? { runId: flags.run } : {}),
          all: flags.all === true,
          jobIds,
        });
        if (json) printJson(host.io, result);
        else
          host.io.stdout.write(
            `re-queued ${result.retried.length} job(s)${result.skipped.length ? `; not failed jobs: ${result.skipped.join(', ')}` : ''}\n`,
          );
        return result.skipped.length > 0 ? EXIT.failed : EXIT.ok;
      }),
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
