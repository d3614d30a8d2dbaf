/**
 * The fleet as a value: what `fleet.yaml` declares once parsed (sources, chatbots, alerts), in the
 * canonical form that is compared, stored in Redis and printed by `fleet show`. Plain JSON: every
 * setting is kept as typed on the command line (a string), so that its meaning is the flag's.
 */
import type { Where } from '../domain/where.js';

/** When a source's chatbots sync: a cron pattern as `schedule add --cron` takes, in an optional IANA zone. */
export interface FleetSchedule {
  cron: string;
  tz?: string;
}

/** One feed: a file, a URL, or a RESO Web API resource pulled by replication. */
export interface FleetSource {
  feed: string;
  profile?: string;
  mapping?: string;
  /** --display-policy: the MLS display policy's YAML file (docs/display-rules.md). */
  displayPolicy?: string;
  format?: string;
  delimiter?: string;
  encoding?: string;
  replicate?: boolean;
  sweep?: boolean;
  /** --events: replicated by the EntityEvent resource (RESO RCP-027), one event read for all its chatbots. */
  events?: boolean;
  /** --feed-budget: a preset (mls-grid) or a spec (2/s,7200/h). */
  budget?: string;
  feedPageSize?: string;
  overlap?: string;
  /** --media-store: where the source's photos are hosted (`file:///ABS/DIR` or `s3://BUCKET[/PREFIX]`), for every chatbot on it. */
  mediaStore?: string;
  /** --media-base-url: the public address the store's objects are served at (required with mediaStore). */
  mediaBaseUrl?: string;
  /** --media-user-agent: `token` (the feed's access token) or a value sent as it is. */
  mediaUserAgent?: string;
  schedule?: FleetSchedule;
}

/** One chatbot (its name is its serial, as `--chatbot` takes it) on one source. */
export interface FleetChatbot {
  source: string;
  where?: Where;
  keyType?: string;
  mode?: string;
  deleteScope?: string;
  maxDeletes?: string;
  maxRejected?: string;
  pageSize?: string;
  maxWipes?: string;
  allowWipe?: string[];
}

/** An alert as `alerts add` makes it, its webhook named by the env variable that holds it (never the URL). */
export interface FleetAlert {
  webhookEnv: string;
  format?: string;
  on?: string[];
  chatbots?: string[];
  failedRows?: string;
  staleAfter?: string;
}

export interface Fleet {
  sources: Record<string, FleetSource>;
  chatbots: Record<string, FleetChatbot>;
  alerts: Record<string, FleetAlert>;
}

/** Scalar settings of a source (strings as typed), besides `feed`, its switches and `schedule`. */
export const SOURCE_TEXT_SETTINGS = [
  'profile',
  'mapping',
  'displayPolicy',
  'format',
  'delimiter',
  'encoding',
  'budget',
  'feedPageSize',
  'overlap',
  'mediaStore',
  'mediaBaseUrl',
  'mediaUserAgent',
] as const;
export const SOURCE_FLAG_SETTINGS = ['replicate', 'sweep', 'events'] as const;
export const SOURCE_KEYS = ['feed', ...SOURCE_TEXT_SETTINGS, ...SOURCE_FLAG_SETTINGS, 'schedule'] as const;

/** A chatbot's sync settings: the `sync` flags of the same name (maxDeletes is --max-deletes). */
export const CHATBOT_TEXT_SETTINGS = ['keyType', 'mode', 'deleteScope', 'maxDeletes', 'maxRejected', 'pageSize', 'maxWipes'] as const;
export const CHATBOT_KEYS = ['source', 'where', ...CHATBOT_TEXT_SETTINGS, 'allowWipe'] as const;

export const ALERT_TEXT_SETTINGS = ['format', 'failedRows', 'staleAfter'] as const;
export const ALERT_KEYS = ['webhookEnv', ...ALERT_TEXT_SETTINGS, 'on', 'chatbots'] as const;

export const TOP_KEYS = ['sources', 'chatbots', 'alerts'] as const;

/** Why a pattern: the name is stored as a schedule name and an alert name, and typed on the command line. */
export const FLEET_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** An env variable's name, as a shell would take it. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The schedule that synced a fleet chatbot on its own (before a source's one schedule fanned out); the fleet owns it. */
export function fleetScheduleName(chatbot: string): string {
  return `fleet-${chatbot}`;
}

/**
 * The one schedule that runs a fleet source's fan-out (`fleet run SOURCE` in a worker); the fleet
 * owns schedules of this name too. Why '@': a fleet name cannot hold it, so no chatbot's schedule
 * name (`fleet-NAME`) can ever be a source's.
 */
export function fleetSourceScheduleName(source: string): string {
  return `fleet@${source}`;
}

export function emptyFleet(): Fleet {
  return { sources: {}, chatbots: {}, alerts: {} };
}
