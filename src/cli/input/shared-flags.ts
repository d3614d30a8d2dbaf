/**
 * The flags many commands share, declared once: the config flags (their env names come from
 * config.ts `CONFIG_FLAG_ENV`, which resolveConfig maps them through) and --json. Commands add
 * them by name; the option, its argument and its help ("… (env NAME)") are built from this table.
 */
import { Option, type Command } from 'commander';
import { CONFIG_FLAG_ENV, configFlag, type ConfigFlagName } from '../../config/config.js';
import { LOG_LEVELS } from '../../config/config-settings.js';

interface SharedFlag {
  /** The option's argument, as commander writes it. */
  arg?: string;
  help: string;
  /** Said after the env name ("env SITE_URL; default: …"). */
  note?: string;
}

export type SharedFlagName = ConfigFlagName | 'json';

/** The help heading shared flags are listed under, after the command's own (help-layout.ts). */
export const SHARED_OPTIONS_HEADING = 'Shared options:';

const SHARED_FLAGS = {
  apiBaseUrl: { arg: '<url>', help: 'base URL of the service' },
  siteUrl: { arg: '<url>', help: 'base URL of the table listing', note: "default: the API base URL's origin" },
  redisUrl: { arg: '<url>', help: 'Redis holding the queues and run records' },
  redisClusterNodes: {
    arg: '<host:port,...>',
    help: 'a Redis Cluster instead of --redis-url (seed nodes; a URL entry gives password and TLS)',
  },
  prefix: { arg: '<prefix>', help: 'BullMQ key prefix' },
  concurrency: { arg: '<n>', help: 'requests in flight from this process' },
  globalConcurrency: { arg: '<n>', help: 'requests in flight across every worker process' },
  rate: { arg: '<n/s>', help: 'global cap on requests started per second' },
  feedTimeout: { arg: '<duration>', help: 'the longest reading the feed may take in all (e.g. 90s, 10m, 2h)', note: 'default: 30m' },
  mediaStore: { arg: '<url>', help: 'host photos in this store: file:///ABS/DIR or s3://BUCKET[/PREFIX] (docs/photos.md)' },
  mediaBaseUrl: { arg: '<url>', help: 'with --media-store: the public address its objects are served at (each Image is <url>/<key>)' },
  mediaUserAgent: {
    arg: '<token|value>',
    help: "User-Agent of photo downloads: 'token' sends the feed's OAuth access token (MLS Grid's rule), anything else as it is",
  },
  mediaTimeout: { arg: '<duration>', help: 'the longest one photo download may take', note: 'default: 60s' },
  logLevel: { arg: '<level>', help: `${LOG_LEVELS.slice(0, -1).join(', ')} or ${LOG_LEVELS.at(-1) ?? ''}` },
  json: { help: 'print the result as one JSON object on stdout' },
} as const satisfies Record<SharedFlagName, SharedFlag>;

/** The connection flags of every command that calls the service (`--log-level` and `--json` with them). */
export const CONNECTION_FLAGS: readonly SharedFlagName[] = ['apiBaseUrl', 'siteUrl', 'logLevel', 'json'];
/** The flags of every command that works on the queues and run records. */
export const REDIS_FLAGS: readonly SharedFlagName[] = ['redisUrl', 'redisClusterNodes', 'prefix', 'logLevel', 'json'];
/** The hosted-photo settings of a process that pulls a feed (docs/photos.md). */
export const MEDIA_FLAGS: readonly SharedFlagName[] = ['mediaStore', 'mediaBaseUrl', 'mediaUserAgent', 'mediaTimeout'];
/** The limits of a process that runs workers. */
export const WORKER_LIMIT_FLAGS: readonly SharedFlagName[] = ['concurrency', 'globalConcurrency', 'rate'];

export interface SharedFlagOptions {
  /** When the flags apply, said first in their help ("with --work"). */
  when?: string;
  /** What --json prints (default "the result"). */
  json?: string;
}

function isConfigFlag(name: SharedFlagName): name is ConfigFlagName {
  return name in CONFIG_FLAG_ENV;
}

function description(name: SharedFlagName, options: SharedFlagOptions): string {
  const flag: SharedFlag = SHARED_FLAGS[name];
  const help = name === 'json' && options.json !== undefined ? `print ${options.json} as one JSON object on stdout` : flag.help;
  const notes = [...(isConfigFlag(name) ? [`env ${CONFIG_FLAG_ENV[name]}`] : []), ...(flag.note === undefined ? [] : [flag.note])];
  return `${options.when === undefined ? '' : `${options.when}: `}${help}${notes.length === 0 ? '' : ` (${notes.join('; ')})`}`;
}

/** Adds the named shared flags to `command`, in the order given. */
export function addSharedFlags(command: Command, names: readonly SharedFlagName[], options: SharedFlagOptions = {}): Command {
  for (const name of names) {
    const flag: SharedFlag = SHARED_FLAGS[name];
    const spelling = isConfigFlag(name) ? configFlag(name) : `--${name}`;
    const option = new Option(flag.arg === undefined ? spelling : `${spelling} ${flag.arg}`, description(name, options));
    command.addOption(option.helpGroup(SHARED_OPTIONS_HEADING));
  }
  return command;
}
