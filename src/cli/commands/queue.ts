/**
 * The queue commands: `worker`, `runs list|show`, `jobs failed|retry|find|resume`,
 * `schedule add|list|remove`. Each resolves Config, opens what it needs and releases it in finally.
 */
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { displaySource, unstorableSourceReason } from '../../feed/feed-source.js';
import { findKeyJobs, listFailedJobs, retryJobs } from '../../queue/failed-jobs.js';
import { addSchedule, listSchedules, removeSchedule } from '../../queue/schedules.js';
import type { RunRecord } from '../../store/run-types.js';
import { requireApiBase } from '../../config.js';
import { createCliLogger } from '../api-wiring.js';
import { configFromCli } from '../config-from-cli.js';
import { EXIT } from '../exit-codes.js';
import type { CommandHost, RegisterCommands } from '../host.js';
import { printJson } from '../io.js';
import { wholeNumber } from '../option-values.js';
import { createRecordedClient, openQueueContext, startConfiguredWorkers, type QueueContext } from '../queue-wiring.js';
import { addSyncOptions, toSyncRequest, type RawSyncOptions } from '../sync-options.js';
import type { ActionResult } from '../run-action.js';
import { registerRunControl } from './run-control.js';

export interface RedisFlags {
  redisUrl?: string;
  prefix?: string;
  logLevel?: string;
  json?: boolean;
}

/** The Redis, log and --json options every queue command takes. */
export function addRedisOptions(cmd: Command): Command {
  return cmd
    .option('--redis-url <url>', 'Redis URL (env REDIS_URL)')
    .option('--prefix <prefix>', 'BullMQ key prefix (env LISTING_SYNC_PREFIX)')
    .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (env LOG_LEVEL)')
    .option('--json', 'print the result as one JSON object on stdout');
}

/** Runs `body` with store and queues open (fail-fast connection), closed afterwards. */
export async function withQueue(host: CommandHost, flags: RedisFlags, body: (ctx: QueueContext, json: boolean) => Promise<ActionResult>): Promise<void> {
  await host.run(async () => {
    const config = configFromCli(flags, host.io);
    const ctx = await openQueueContext(config, 'producer');
    try {
      return await body(ctx, flags.json === true);
    } finally {
      await ctx.close();
    }
  });
}

function when(ms: number | undefined): string {
  return ms === undefined ? '-' : new Date(ms).toISOString();
}

function runLine(run: RunRecord): string {
  const c = run.counts;
  return `${run.id}  ${run.chatbot}  ${run.status}${run.forced ? ' (forced)' : ''}  ${run.trigger}  ${when(run.startedAt)}  created ${c.created}, updated ${c.updated}, deleted ${c.deleted}, failed ${c.failed}  jobs ${c.finishedJobs}/${c.totalJobs}`;
}

function registerWorker(program: Command, host: CommandHost): void {
  addRedisOptions(program.command('worker').description('run workers until SIGINT/SIGTERM, then finish the jobs in flight and exit'))
    .option('--api-base-url <url>', 'base URL of the service (env API_BASE_URL)')
    .option('--site-url <url>', 'base URL of the table listing (env SITE_URL)')
    .option('--concurrency <n>', 'requests in flight from this process (env LISTING_SYNC_CONCURRENCY)')
    .option('--global-concurrency <n>', 'requests in flight across every worker process (env LISTING_SYNC_GLOBAL_CONCURRENCY)')
    .option('--rate <n/s>', 'global cap on requests started per second (env LISTING_SYNC_RATE)')
    .option('--lock-duration-ms <ms>', 'BullMQ lock duration (default 30000; tuning and tests)')
    .option('--stalled-interval-ms <ms>', 'BullMQ stalled-job check interval (default 15000; tuning and tests)')
    .action((flags: RedisFlags & { lockDurationMs?: string; stalledIntervalMs?: string }) =>
      host.run(async () => {
        const config = configFromCli(flags, host.io);
        const lockDurationMs = wholeNumber(flags.lockDurationMs, '--lock-duration-ms', 100);
        const stalledIntervalMs = wholeNumber(flags.stalledIntervalMs, '--stalled-interval-ms', 100);
        const logger = createCliLogger(config, host.io, flags.json === true);
        requireApiBase(config); // a missing API_BASE_URL fails before Redis is touched
        const stopping = new AbortController();
        host.io.onShutdown(() => stopping.abort());
        // 'worker': a daemon waits for Redis, also when it is down at start (one line per interval).
        const ctx = await openQueueContext(config, 'worker', logger);
        const client = createRecordedClient(config, logger, ctx.redis, { watch: ctx.watch });
        try {
          const stall = { ...(lockDurationMs === undefined ? {} : { lockDurationMs }), ...(stalledIntervalMs === undefined ? {} : { stalledIntervalMs }) };
          const workers = await startConfiguredWorkers(config, client.api, ctx, logger, stall, stopping.signal).catch((thrown: unknown) => {
            if (stopping.signal.aborted) return undefined; // stopped while waiting for Redis: a clean stop
            throw thrown;
          });
          if (workers === undefined) {
            logger.info('stopped before Redis answered: no job was taken');
            return EXIT.ok;
          }
          await new Promise<void>((resolve) => (stopping.signal.aborted ? resolve() : stopping.signal.addEventListener('abort', () => resolve(), { once: true })));
          logger.info(ctx.watch.isUp() ? 'shutting down: finishing jobs in flight' : 'shutting down while Redis is not answering: jobs in flight are picked up again once it answers');
          await workers.close();
          logger.info('workers closed');
        } finally {
          await client.close(); // flushes the last call metrics while Redis is still open
          await ctx.close();
        }
        return EXIT.ok;
      }),
    );
}

function registerRuns(program: Command, host: CommandHost): void {
  const runs = program.command('runs').description('sync runs and what they did');
  addRedisOptions(runs.command('list').description('runs, newest first'))
    .option('--chatbot <serial>', 'only runs of this chatbot')
    .option('--limit <n>', 'how many runs (default 20)')
    .action((flags: RedisFlags & { chatbot?: string; limit?: string }) =>
      withQueue(host, flags, async (ctx, json) => {
        const limit = wholeNumber(flags.limit, '--limit') ?? 20;
        const list = await ctx.store.runs.listRuns({ ...(flags.chatbot ? { chatbot: flags.chatbot } : {}), limit });
        if (json) printJson(host.io, { runs: list });
        else host.io.stdout.write(list.length === 0 ? 'no runs\n' : `${list.map(runLine).join('\n')}\n`);
      }),
    );
  addRedisOptions(runs.command('show').argument('<id>', 'run id').description('one run: summary and live counts'))
    .action((id: string, flags: RedisFlags) =>
      withQueue(host, flags, async (ctx, json) => {
        const run = await ctx.store.runs.getRun(id);
        if (!run) throw new UsageError(`no run ${id} (see \`listing-sync runs list\`)`);
        if (json) printJson(host.io, run);
        else host.io.stdout.write(`${runLine(run)}\nfinished: ${when(run.finishedAt)}\ncounts: ${JSON.stringify(run.counts)}\nrejected rows: ${run.rejectedCount}\nsummary: ${JSON.stringify(run.summary, null, 2)}\n`);
        return run.counts.failedJobs > 0 ? EXIT.failed : EXIT.ok;
      }),
    );
  registerRunControl(runs, host);
}

function registerJobs(program: Command, host: CommandHost): void {
  const jobs = program.command('jobs').description('failed jobs, retries, and jobs by listing key');
  addRedisOptions(jobs.command('failed').description('failed jobs with chatbot, key, attempts and the last Code/Message'))
    .option('--run <id>', 'only jobs of this run')
    .action((flags: RedisFlags & { run?: string }) =>
      withQueue(host, flags, async (ctx, json) => {
        const rows = await listFailedJobs(ctx.queues.writes, ctx.store, flags.run);
        if (json) printJson(host.io, { failed: rows });
        else host.io.stdout.write(rows.length === 0 ? 'no failed jobs\n' : `${rows.map((r) => `${r.jobId}  ${r.chatbot}  ${r.key}  attempts ${r.attempts}  ${r.code}: ${r.message}`).join('\n')}\n`);
        return rows.length > 0 ? EXIT.failed : EXIT.ok;
      }),
    );
  addRedisOptions(jobs.command('retry').argument('[jobIds...]', 'ids of failed jobs').description('re-queue failed jobs (--run ID | --all | JOBID...)'))
    .option('--run <id>', 'every failed job of this run')
    .option('--all', 'every failed job')
    .action((jobIds: string[], flags: RedisFlags & { run?: string; all?: boolean }) =>
      withQueue(host, flags, async (ctx, json) => {
        const ways = [jobIds.length > 0, flags.run !== undefined, flags.all === true].filter(Boolean).length;
        if (ways !== 1) throw new UsageError('say which jobs to retry: --run ID, --all, or job ids (exactly one of them)');
        const result = await retryJobs(ctx.queues.writes, ctx.store, { ...(flags.run ? { runId: flags.run } : {}), all: flags.all === true, jobIds });
        if (json) printJson(host.io, result);
        else host.io.stdout.write(`re-queued ${result.retried.length} job(s)${result.skipped.length ? `; not failed jobs: ${result.skipped.join(', ')}` : ''}\n`);
        return result.skipped.length > 0 ? EXIT.failed : EXIT.ok;
      }),
    );
  addRedisOptions(jobs.command('find').argument('<key>', 'listing key (MLS number or URL)').description('every job and run that touched a listing key'))
    .option('--chatbot <serial>', 'only this chatbot')
    .action((key: string, flags: RedisFlags & { chatbot?: string }) =>
      withQueue(host, flags, async (ctx, json) => {
        const rows = await findKeyJobs(ctx.queues.writes, ctx.store, key, flags.chatbot);
        if (json) printJson(host.io, { key, jobs: rows });
        else host.io.stdout.write(rows.length === 0 ? `no job touched ${key}\n` : `${rows.map((r) => `${when(r.at)}  ${r.runId}  ${r.chatbot}  ${r.jobId}  ${r.state}${r.failedReason ? `  ${r.failedReason}` : ''}`).join('\n')}\n`);
      }),
    );
  addRedisOptions(jobs.command('resume').description('resume the write queue after it was paused (an authentication failure pauses it)'))
    .action((flags: RedisFlags) =>
      withQueue(host, flags, async (ctx, json) => {
        await ctx.queues.writes.resume();
        if (json) printJson(host.io, { resumed: true });
        else host.io.stdout.write('write queue resumed\n');
      }),
    );
}

function registerSchedule(program: Command, host: CommandHost): void {
  const schedule = program.command('schedule').description('nightly syncs (BullMQ job schedulers: survive restarts, run once however many workers)');
  addRedisOptions(addSyncOptions(schedule.command('add').argument('<name>', 'schedule name').description('add or replace a scheduled sync')))
    .requiredOption('--cron <pattern>', 'cron pattern, e.g. "0 2 * * *"')
    .option('--tz <Area/City>', 'time zone of the cron pattern (default: the worker\'s)')
    .action((name: string, flags: RedisFlags & RawSyncOptions & { cron: string; tz?: string }) =>
      withQueue(host, flags, async (ctx, json) => {
        const request = toSyncRequest(flags, { dryRun: false, trigger: 'schedule' });
        const unstorable = unstorableSourceReason(flags.feed);
        if (unstorable !== undefined) {
          throw new UsageError(`--feed ${displaySource(flags.feed)} cannot be scheduled: ${unstorable}, and a schedule is stored in Redis where credentials must never be. Serve the feed at a URL without them (or from a file the workers can read), then add the schedule again.`);
        }
        if (flags.tz !== undefined && !validTimeZone(flags.tz)) throw new UsageError(`--tz must be an IANA time zone such as Europe/Berlin (got '${flags.tz}')`);
        await addSchedule(ctx.queues.syncRuns, { name, cron: flags.cron, ...(flags.tz ? { tz: flags.tz } : {}), request: { ...request } });
        if (json) printJson(host.io, { name, cron: flags.cron, tz: flags.tz ?? null, chatbot: request.chatbot });
        else host.io.stdout.write(`schedule ${name} set: ${flags.cron}${flags.tz ? ` (${flags.tz})` : ''}, chatbot ${request.chatbot}\n`);
      }),
    );
  addRedisOptions(schedule.command('list').description('scheduled syncs'))
    .action((flags: RedisFlags) =>
      withQueue(host, flags, async (ctx, json) => {
        const list = await listSchedules(ctx.queues.syncRuns);
        if (json) printJson(host.io, { schedules: list });
        else host.io.stdout.write(list.length === 0 ? 'no schedules\n' : `${list.map((s) => `${s.name}  ${s.cron}${s.tz ? ` ${s.tz}` : ''}  chatbot ${s.request.chatbot}  next ${when(s.next)}`).join('\n')}\n`);
      }),
    );
  addRedisOptions(schedule.command('remove').argument('<name>', 'schedule name').description('remove a scheduled sync'))
    .action((name: string, flags: RedisFlags) =>
      withQueue(host, flags, async (ctx, json) => {
        const removed = await removeSchedule(ctx.queues.syncRuns, name);
        if (json) printJson(host.io, { name, removed });
        else host.io.stdout.write(removed ? `schedule ${name} removed\n` : `no schedule ${name}\n`);
        return removed ? EXIT.ok : EXIT.failed;
      }),
    );
}

function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Registers the queue commands. */
export const registerQueueCommands: RegisterCommands = (program, host) => {
  registerWorker(program, host);
  registerRuns(program, host);
  registerJobs(program, host);
  registerSchedule(program, host);
};
