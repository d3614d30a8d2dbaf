/**
 * A fleet chatbot's sync request, built exactly as `schedule add` builds one: its source's and its
 * own settings become the flags of the same meaning, parsed by the same commander options
 * (defaults included) and the same toSyncRequest. A refusal names flags; each is placed back at
 * the setting of the file it came from.
 */
import { Command } from 'commander';
import { coerceError } from '../../shared/errors.js';
import type { FleetChatbot, FleetSource } from '../../fleet/fleet-model.js';
import type { FleetPath, ShapeProblem } from '../../fleet/fleet-shape.js';
import type { SyncRequest } from '../../sync/sync-request.js';
import { addSyncOptions, toSyncRequest, type RawSyncOptions } from './sync-options.js';
import { mediaStoreProblem } from '../../shared/media-store-url.js';

/** Fleet setting → the flag it means (sources first, then chatbots). */
const SOURCE_FLAGS = {
  feed: '--feed',
  profile: '--profile',
  mapping: '--mapping',
  displayPolicy: '--display-policy',
  format: '--format',
  delimiter: '--delimiter',
  encoding: '--encoding',
  budget: '--feed-budget',
  feedPageSize: '--feed-page-size',
  overlap: '--overlap',
} as const;
const CHATBOT_FLAGS = {
  keyType: '--key-type',
  mode: '--mode',
  deleteScope: '--delete-scope',
  maxDeletes: '--max-deletes',
  maxRejected: '--max-rejected',
  pageSize: '--page-size',
  maxWipes: '--max-wipes',
} as const;
const SWITCHES = { replicate: '--replicate', sweep: '--sweep', events: '--events' } as const;

/** Source settings that are no sync option (the store is the process's, or the source's own): checked here, kept in `request.media`. */
type MediaSetting = 'mediaStore' | 'mediaBaseUrl' | 'mediaUserAgent';

/** flag → [section, setting]. */
const SETTING_OF_FLAG = new Map<string, ['source' | 'chatbot', string]>([
  ...Object.entries(SOURCE_FLAGS).map(([setting, flag]): [string, ['source', string]] => [flag, ['source', setting]]),
  ...Object.entries(SWITCHES).map(([setting, flag]): [string, ['source', string]] => [flag, ['source', setting]]),
  ...Object.entries(CHATBOT_FLAGS).map(([setting, flag]): [string, ['chatbot', string]] => [flag, ['chatbot', setting]]),
  ['--allow-wipe', ['chatbot', 'allowWipe']],
]);

/** The command line the settings mean (`--name=value`, so a value may start with '-'). */
function argvOf(chatbot: string, source: FleetSource, settings: FleetChatbot | undefined): string[] {
  const argv = [`--chatbot=${chatbot}`];
  for (const [setting, flag] of Object.entries(SOURCE_FLAGS)) {
    const value = source[setting as keyof typeof SOURCE_FLAGS];
    if (value !== undefined) argv.push(`${flag}=${value}`);
  }
  for (const [setting, flag] of Object.entries(SWITCHES)) if (source[setting as keyof typeof SWITCHES] === true) argv.push(flag);
  if (settings !== undefined) {
    for (const [setting, flag] of Object.entries(CHATBOT_FLAGS)) {
      const value = settings[setting as keyof typeof CHATBOT_FLAGS];
      if (value !== undefined) argv.push(`${flag}=${value}`);
    }
    for (const field of settings.allowWipe ?? []) argv.push(`--allow-wipe=${field}`);
  }
  return argv;
}

/** The options commander gives a `schedule add` with this command line. */
function rawOptions(argv: readonly string[]): RawSyncOptions {
  const command = addSyncOptions(new Command('fleet'))
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  command.parse([...argv], { from: 'user' });
  return command.opts<RawSyncOptions>();
}

/** A refusal's lines, each placed at the setting its flag came from (else at the chatbot or source). */
function placed(message: string, sourcePath: FleetPath, chatbotPath: FleetPath | undefined): ShapeProblem[] {
  const lines = message
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && line !== 'invalid sync options:');
  return lines.map((line) => {
    const flag = /^--[a-z-]+/.exec(line)?.[0];
    const setting = flag === undefined ? undefined : SETTING_OF_FLAG.get(flag);
    const base = setting?.[0] === 'chatbot' && chatbotPath !== undefined ? chatbotPath : sourcePath;
    // Why the flags are renamed: the user wrote settings, and maxDeletes is what they look for.
    const text = line
      .slice(setting === undefined ? 0 : (flag?.length ?? 0))
      .trim()
      // The value, quoted before the colon, is already in the file at the line shown.
      .replace(/^'[^']*':\s*/, '')
      .replace(/--[a-z-]+/g, (other) => SETTING_OF_FLAG.get(other)?.[1] ?? other);
    return { path: setting === undefined ? (chatbotPath ?? sourcePath) : [...base, setting[1]], message: text };
  });
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** A source's own media store as a request's `media`, or the problems of its settings (each at its setting). */
function mediaOfSource(
  source: FleetSource,
  sourcePath: FleetPath,
): { media?: NonNullable<SyncRequest['media']>; problems: ShapeProblem[] } {
  const { mediaStore: store, mediaBaseUrl: baseUrl, mediaUserAgent: userAgent } = source;
  const problems: ShapeProblem[] = [];
  const at = (setting: MediaSetting, message: string): void => {
    problems.push({ path: [...sourcePath, setting], message });
  };
  if (store === undefined) {
    for (const setting of ['mediaBaseUrl', 'mediaUserAgent'] as const)
      if (source[setting] !== undefined)
        at(setting, 'does nothing without mediaStore: name the store (file:///DIR or s3://BUCKET), or drop it');
    return { problems };
  }
  const problem = mediaStoreProblem(store);
  if (problem !== undefined) at('mediaStore', problem);
  if (baseUrl === undefined)
    at('mediaStore', 'needs mediaBaseUrl: the public address the stored photos are served at, e.g. https://photos.example.com');
  else if (!isHttpUrl(baseUrl)) at('mediaBaseUrl', 'must be an http(s) URL: the public address the stored photos are served at');
  if (problems.length > 0 || baseUrl === undefined) return { problems };
  return { media: { store, baseUrl, ...(userAgent === undefined ? {} : { userAgent }) }, problems };
}

export type RequestOutcome = { request: SyncRequest; problems: [] } | { request?: undefined; problems: ShapeProblem[] };

/**
 * The request a schedule of `chatbot` on `source` stores, or the problems of the settings. Without
 * `settings` it checks the source's own settings (a source no chatbot uses yet).
 */
export function fleetSyncRequest(
  names: { source: string; chatbot?: string },
  source: FleetSource,
  settings: FleetChatbot | undefined,
): RequestOutcome {
  const sourcePath = ['sources', names.source];
  const chatbotPath = names.chatbot === undefined ? undefined : ['chatbots', names.chatbot];
  const { media, problems } = mediaOfSource(source, sourcePath);
  let request: SyncRequest;
  try {
    request = toSyncRequest(rawOptions(argvOf(names.chatbot ?? 'fleet-check', source, settings)), { dryRun: false, trigger: 'schedule' });
  } catch (thrown) {
    return { problems: [...placed(coerceError(thrown).message, sourcePath, chatbotPath), ...problems] };
  }
  if (problems.length > 0) return { problems };
  return { request: media === undefined ? request : { ...request, media }, problems: [] };
}

/**
 * A chatbot's request as the fan-out of its source runs it (`fleet run`, the source's schedule):
 * its own request, its `where`, and the source's name (its runs are listed under it).
 */
export function fanOutRequest(request: SyncRequest, source: string, settings: FleetChatbot): SyncRequest {
  const fanned: SyncRequest = { ...request, fleetSource: source };
  if (settings.where !== undefined) fanned.feed = { ...request.feed, where: settings.where };
  return fanned;
}
