/**
 * The applied fleet as the displays read it (`runs list`, `schedule list`, the dashboard's fleet
 * page and /metrics): which source each chatbot is on, which chatbots a schedule syncs, and one
 * row per chatbot with its source's feed (without credentials), its filter in words and its schedule.
 *
 * Why by chatbot and by name rather than by a schedule's request: a schedule is either a
 * chatbot's own (`fleet-CHATBOT`) or one that runs a whole source; the applied fleet says which
 * chatbots are on that source, whatever the request stored in the schedule looks like.
 */
import { fleetScheduleName, type Fleet, type FleetSchedule } from '../fleet/fleet-model.js';
import { whereInWords } from '../fleet/where-words.js';
import type { Schedule } from '../queue/schedules.js';
import { displaySource } from '../feed/feed-source.js';

/** The fleet source a schedule serves and the chatbots it syncs. */
export interface ScheduleFleet {
  source: string;
  chatbots: string[];
}

/** A chatbot's schedule as installed (BullMQ's scheduler), with its next run when known. */
export interface RosterSchedule {
  name: string;
  cron: string;
  tz?: string;
  next?: number;
}

/** One chatbot of the applied fleet. */
export interface RosterEntry {
  chatbot: string;
  source: string;
  /** The source's feed as shown: a path as written, a URL without user, password, query or fragment. */
  feed: string;
  /** The filter in words; absent: the chatbot receives every record of its source. */
  filter?: string;
  /** The schedule that syncs it now; absent when none does. */
  schedule?: RosterSchedule;
  /** What the source declares in fleet.yaml (shown when no schedule is installed for the chatbot). */
  declared?: FleetSchedule;
}

/** The fleet source of `chatbot`, or undefined when the applied fleet does not name it. */
export function fleetSourceOf(fleet: Fleet, chatbot: string): string | undefined {
  return Object.hasOwn(fleet.chatbots, chatbot) ? fleet.chatbots[chatbot]?.source : undefined;
}

/** The chatbots on `source`, sorted. */
export function chatbotsOn(fleet: Fleet, source: string): string[] {
  return Object.keys(fleet.chatbots)
    .filter((chatbot) => fleet.chatbots[chatbot]?.source === source)
    .sort();
}

/** The fleet source a schedule of a whole source fans out to (its request's `fleetRun.source`, src/sync/fleet-schedule.ts). */
function requestedSource(fleet: Fleet, request: Readonly<Record<string, unknown>>): string | undefined {
  const fanOut = request.fleetRun;
  if (typeof fanOut !== 'object' || fanOut === null || !('source' in fanOut)) return undefined;
  const source = fanOut.source;
  return typeof source === 'string' && Object.hasOwn(fleet.sources, source) ? source : undefined;
}

/**
 * Which fleet source and chatbots `schedule` syncs: a chatbot's own schedule (`fleet-CHATBOT`, or a
 * request for a fleet chatbot) syncs that chatbot; a schedule of a whole source syncs all its
 * chatbots. Undefined for a schedule outside the fleet.
 */
export function scheduleFleetOf(fleet: Fleet, schedule: Pick<Schedule, 'name' | 'request'>): ScheduleFleet | undefined {
  const request: Readonly<Record<string, unknown>> = schedule.request;
  const source = requestedSource(fleet, request);
  if (source !== undefined) return { source, chatbots: chatbotsOn(fleet, source) };
  const named = Object.keys(fleet.chatbots).find((chatbot) => fleetScheduleName(chatbot) === schedule.name);
  const chatbot = named ?? schedule.request.chatbot;
  const chatbotSource = fleetSourceOf(fleet, chatbot);
  return chatbotSource === undefined ? undefined : { source: chatbotSource, chatbots: [chatbot] };
}

function rosterSchedule(schedule: Schedule): RosterSchedule {
  return {
    name: schedule.name,
    cron: schedule.cron,
    ...(schedule.tz === undefined ? {} : { tz: schedule.tz }),
    ...(schedule.next === undefined ? {} : { next: schedule.next }),
  };
}

/** One entry per chatbot of the applied fleet, by source then chatbot, each with the schedule that syncs it. */
export function fleetRoster(fleet: Fleet, schedules: readonly Schedule[]): RosterEntry[] {
  const byChatbot = new Map<string, Schedule>();
  for (const schedule of schedules) {
    const served = scheduleFleetOf(fleet, schedule);
    // Why a chatbot's own schedule wins: it is the one named after it (a source's schedule covers it too).
    for (const chatbot of served?.chatbots ?? [])
      if (!byChatbot.has(chatbot) || schedule.name === fleetScheduleName(chatbot)) byChatbot.set(chatbot, schedule);
  }
  return Object.entries(fleet.chatbots)
    .map(([chatbot, settings]): RosterEntry => {
      const source = fleet.sources[settings.source];
      const filter = whereInWords(settings.where);
      const schedule = byChatbot.get(chatbot);
      return {
        chatbot,
        source: settings.source,
        feed: source === undefined ? '' : displaySource(source.feed),
        ...(filter === undefined ? {} : { filter }),
        ...(schedule === undefined ? {} : { schedule: rosterSchedule(schedule) }),
        ...(source?.schedule === undefined ? {} : { declared: source.schedule }),
      };
    })
    .sort((a, b) => a.source.localeCompare(b.source) || a.chatbot.localeCompare(b.chatbot));
}
