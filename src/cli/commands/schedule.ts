/** `listing-sync schedule add|list|remove`: nightly syncs as BullMQ job schedulers (src/queue/schedules.ts). */
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { displaySource, unstorableSourceReason } from '../../feed/feed-source.js';
import { addSchedule, listSchedules, removeSchedule } from '../../queue/schedules.js';
import { EXIT } from '../exit-codes.js';
import { when } from '../format-run.js';
import type { CommandHost, RegisterCommands } from '../host.js';
import { printJson } from '../io.js';
import { addSyncOptions, toSyncRequest, type RawSyncOptions } from '../sync-options.js';
import { addRedisOptions, withQueue, type RedisFlags } from '../with-queue.js';

function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const registerScheduleCommands: RegisterCommands = (program: Command, host: CommandHost) => {
  const schedule = program
    .command('schedule')
    .description('nightly syncs (BullMQ job schedulers: survive restarts, run once however many workers)');
  addRedisOptions(
    addSyncOptions(schedule.command('add').argument('<name>', 'schedule name').description('add or replace a scheduled sync')),
  )
    .requiredOption('--cron <pattern>', 'cron pattern, e.g. "0 2 * * *"')
    .option('--tz <Area/City>', "time zone of the cron pattern (default: the worker's)")
    .action((name: string, flags: RedisFlags & RawSyncOptions & { cron: string; tz?: string }) =>
      withQueue(host, flags, async (ctx, json) => {
        const request = toSyncRequest(flags, { dryRun: false, trigger: 'schedule' });
        const unstorable = unstorableSourceReason(flags.feed);
        if (unstorable !== undefined) {
          throw new UsageError(
            `--feed ${displaySource(flags.feed)} cannot be scheduled: ${unstorable}, and a schedule is stored in Redis where credentials must never be. Serve the feed at a URL without them (or from a file the workers can read), then add the schedule again.`,
          );
        }
        if (flags.tz !== undefined && !validTimeZone(flags.tz))
          throw new UsageError(`--tz must be an IANA time zone such as Europe/Berlin (got '${flags.tz}')`);
        await addSchedule(ctx.queues.syncRuns, { name, cron: flags.cron, ...(flags.tz ? { tz: flags.tz } : {}), request: { ...request } });
        if (json) printJson(host.io, { name, cron: flags.cron, tz: flags.tz ?? null, chatbot: request.chatbot });
        else host.io.stdout.write(`schedule ${name} set: ${flags.cron}${flags.tz ? ` (${flags.tz})` : ''}, chatbot ${request.chatbot}\n`);
      }),
    );
  addRedisOptions(schedule.command('list').description('scheduled syncs')).action((flags: RedisFlags) =>
    withQueue(host, flags, async (ctx, json) => {
      const list = await listSchedules(ctx.queues.syncRuns);
      if (json) printJson(host.io, { schedules: list });
      else
        host.io.stdout.write(
          list.length === 0
            ? 'no schedules\n'
            : `${list.map((s) => `${s.name}  ${s.cron}${s.tz ? ` ${s.tz}` : ''}  chatbot ${s.request.chatbot}${s.request.replicate ? '  replicate' : ''}  next ${when(s.next)}`).join('\n')}\n`,
        );
    }),
  );
  addRedisOptions(schedule.command('remove').argument('<name>', 'schedule name').description('remove a scheduled sync')).action(
    (name: string, flags: RedisFlags) =>
      withQueue(host, flags, async (ctx, json) => {
        const removed = await removeSchedule(ctx.queues.syncRuns, name);
        if (json) printJson(host.io, { name, removed });
        else host.io.stdout.write(removed ? `schedule ${name} removed\n` : `no schedule ${name}\n`);
        return removed ? EXIT.ok : EXIT.failed;
      }),
  );
};
