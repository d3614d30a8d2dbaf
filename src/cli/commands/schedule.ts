/** `listing-sync schedule add|list|remove`: nightly syncs as BullMQ job schedulers (src/queue/schedules.ts). */
import type { Command } from 'commander';
import { UsageError } from '../../shared/errors.js';
import type { Schedule } from '../../queue/schedules.js';
import { nextOccurrences } from '../../queue/cron.js';
import { addSchedule, listSchedules, removeSchedule } from '../../queue/schedules.js';
import { displaySource, unstorableSourceReason } from '../../feed/feed-source.js';
import { cronLineProblem, scheduledFeedProblem } from '../../sync/schedule-check.js';
import { EXIT } from '../exit-codes.js';
import type { CommandHost, RegisterCommands } from '../host.js';
import { printJson } from '../io.js';
import { addSyncOptions, toSyncRequest, type RawSyncOptions } from '../input/sync-options.js';
import { addRedisOptions, withQueue, withQueueConfig, type RedisFlags } from '../wiring/with-queue.js';
import { displayedFleet } from '../wiring/fleet-read-wiring.js';
import { scheduleFleetOf, type ScheduleFleet } from '../../sync/fleet-roster.js';
import { localZone, validTimeZone, zonedTime } from '../input/zoned-time.js';

/** Occurrences shown by `schedule add`. */
const NEXT_SHOWN = 3;

/** Where a schedule's times are shown: its zone, or without one this machine's (workers use their own). */
function zoneLabel(tz: string | undefined): string {
  return tz ?? `no --tz: each worker's own time zone; here ${localZone()}`;
}

/** `schedule list`'s next run: in the schedule's zone and in UTC. */
function nextText(schedule: Schedule): string {
  if (schedule.next === undefined) return 'next -';
  const at = zonedTime(schedule.next, schedule.tz ?? 'UTC');
  return schedule.tz === undefined ? `next ${at.utcText} UTC (workers' time zone)` : `next ${at.text} ${schedule.tz} (${at.utcText} UTC)`;
}

/**
 * A schedule as `schedule list --json` shows it: with its next run in UTC and, when it has a zone,
 * in that zone; a fleet schedule with `fleet: {source, chatbots}`.
 */
function scheduleJson(schedule: Schedule, fleet: ScheduleFleet | undefined): Schedule & { nextUtc?: string; nextLocal?: string } {
  const withFleet = fleet === undefined ? schedule : { ...schedule, fleet };
  if (schedule.next === undefined) return withFleet;
  const at = zonedTime(schedule.next, schedule.tz ?? 'UTC');
  return { ...withFleet, nextUtc: at.utc, ...(schedule.tz === undefined ? {} : { nextLocal: at.iso }) };
}

/** One schedule as `schedule list` prints it: name, cron (and zone), chatbot, replicate, fleet source and its chatbots, next runs. */
function scheduleLine(s: Schedule, fleet: ScheduleFleet | undefined): string {
  const cron = s.tz ? `${s.cron} ${s.tz}` : s.cron;
  const served = fleet === undefined ? '' : `  source ${fleet.source} (${fleet.chatbots.join(', ')})`;
  const who = fleet !== undefined && fleet.chatbots.length !== 1 ? '' : `  chatbot ${s.request.chatbot}`;
  return `${s.name}  ${cron}${who}${s.request.replicate ? '  replicate' : ''}${served}  ${nextText(s)}`;
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
            `--feed ${displaySource(flags.feed)} cannot be scheduled: ${unstorable}, and a schedule is stored in ` +
              `Redis where credentials must never be. Serve the feed at a URL without them (or from a file the ` +
              `workers can read), then add the schedule again.`,
          );
        }
        if (flags.tz !== undefined && !validTimeZone(flags.tz))
          throw new UsageError(`--tz must be an IANA time zone such as Europe/Berlin (got '${flags.tz}')`);
        const problem = cronLineProblem(flags.cron, flags.tz) ?? (await scheduledFeedProblem(flags.feed));
        if (problem !== undefined) throw new UsageError(problem);
        await addSchedule(ctx.queues.syncRuns, { name, cron: flags.cron, ...(flags.tz ? { tz: flags.tz } : {}), request: { ...request } });
        const zone = flags.tz ?? localZone();
        const next = nextOccurrences(flags.cron, flags.tz, Date.now(), NEXT_SHOWN).map((ms) => zonedTime(ms, zone));
        if (json)
          printJson(host.io, {
            name,
            cron: flags.cron,
            tz: flags.tz ?? null,
            chatbot: request.chatbot,
            next: next.map((at) => ({ utc: at.utc, local: at.iso })),
          });
        else
          host.io.stdout.write(
            `schedule ${name} set: ${flags.cron}${flags.tz ? ` (${flags.tz})` : ''}, chatbot ` +
              `${request.chatbot}\nnext runs ` +
              `(${zoneLabel(flags.tz)}):\n${next.map((at) => `  ${at.text}  (${at.utcText} UTC)\n`).join('')}`,
          );
      }),
    );
  addRedisOptions(schedule.command('list').description('scheduled syncs')).action((flags: RedisFlags) =>
    withQueueConfig(host, flags, async (ctx, config, json) => {
      const [list, applied] = await Promise.all([listSchedules(ctx.queues.syncRuns), displayedFleet(ctx, config)]);
      const fleets = list.map((s) => scheduleFleetOf(applied, s));
      if (json) printJson(host.io, { schedules: list.map((s, i) => scheduleJson(s, fleets[i])) });
      else host.io.stdout.write(list.length === 0 ? 'no schedules\n' : `${list.map((s, i) => scheduleLine(s, fleets[i])).join('\n')}\n`);
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
