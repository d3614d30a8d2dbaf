/**
 * The sync options shared by `sync` and `schedule add`: declared once, parsed once into a
 * SyncRequest, with every problem reported together before anything is read or sent.
 */
import type { Command } from 'commander';
import { z } from 'zod';
import { parseMaxDeletes } from '../../domain/guard.js';
import { SYNC_KEY_TYPES } from '../../domain/listing.js';
import { DELETE_SCOPES, SYNC_MODES } from '../../domain/plan.js';
import { UsageError } from '../../shared/errors.js';
import type { SyncRequest } from '../../sync/sync-request.js';
import { addReplicateOptions, replicateRequest, type ReplicateFlags } from './replicate-options.js';
import { addWipeOptions, wipeFlagsShape, wipeRequest, type WipeFlags } from './wipe-options.js';

const PROFILES = ['native', 'redfin', 'reso'] as const;
const FORMATS = ['csv', 'json', 'ndjson'] as const;

/** Mode when --mode is not given; a replicating run plans as upsert (replicate-options.ts says why). */
const DEFAULT_MODE = 'mirror';

/** Adds the options that describe a sync (feed, matching, safety, replication) to a command. */
export function addSyncOptions(command: Command): Command {
  const described = command
    .requiredOption('--chatbot <serial>', 'chatbot serial number to sync')
    .requiredOption('--feed <path|url>', 'feed file or http(s) URL')
    .option('--profile <name>', `feed profile: ${PROFILES.join(', ')}`, 'native')
    .option('--mapping <file>', 'mapping JSON file (see docs/feeds-and-mappings.md)')
    .option('--display-policy <file>', 'MLS display policy YAML file (see docs/display-rules.md); default: the IDX defaults')
    .option('--format <format>', `feed format: ${FORMATS.join(', ')} (default: sniffed)`)
    .option('--delimiter <char>', 'CSV delimiter (default: sniffed)')
    .option('--encoding <name>', 'feed text encoding, e.g. latin1', 'utf-8')
    .option('--key-type <type>', `match listings by ${SYNC_KEY_TYPES.join(' or ')}`, 'MLSNumber')
    .option(
      '--mode <mode>',
      `mirror (delete what the feed no longer has) or upsert (never delete); default ${DEFAULT_MODE}, upsert with --replicate`,
    )
    .option('--delete-scope <scope>', 'managed (only listings listing-sync wrote) or all', 'managed')
    .option('--max-deletes <n|p%>', 'refuse when deletes exceed this count or share of managed listings', '10%')
    .option('--max-rejected <p%>', 'refuse when more than this share of rows is rejected', '5%')
    .option('--page-size <n>', 'RealEstateList page size for the snapshot', '100')
    .option('--force', 'run even when the safety guard refuses (the summary says it was forced)', false);
  return addReplicateOptions(addWipeOptions(described));
}

export interface RawSyncOptions extends ReplicateFlags, WipeFlags {
  chatbot: string;
  feed: string;
  profile: string;
  mapping?: string;
  displayPolicy?: string;
  format?: string;
  delimiter?: string;
  encoding: string;
  keyType: string;
  /** Undefined when not given: mirror, or upsert with --replicate. */
  mode?: string;
  deleteScope: string;
  maxDeletes: string;
  maxRejected: string;
  pageSize: string;
  force: boolean;
}

/** --max-rejected as typed ('5%' or '5') → the number checkGuard compares; the only parser of it. */
const percent = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?%?$/, 'must be a percentage such as 5%')
  .transform((text) => Number(text.replace('%', '')))
  .pipe(z.number().min(0).max(100, 'must be at most 100%'));

function enumOf<T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: () => `must be one of ${values.join(', ')}` });
}

const optionsSchema = z.object({
  chatbot: z.string().trim().min(1, 'must not be empty'),
  feed: z.string().trim().min(1, 'must not be empty'),
  profile: enumOf(PROFILES),
  mapping: z.string().trim().min(1).optional(),
  displayPolicy: z.string().trim().min(1).optional(),
  format: enumOf(FORMATS).optional(),
  delimiter: z
    .string()
    .refine((d) => d === '\\t' || d === 'tab' || d.length === 1, 'must be one character (or "tab")')
    .optional(),
  encoding: z
    .string()
    .trim()
    .refine((name) => {
      try {
        new TextDecoder(name);
        return true;
      } catch {
        return false;
      }
    }, 'is not an encoding this Node.js knows (try utf-8, latin1, windows-1252, utf-16le)'),
  keyType: enumOf(SYNC_KEY_TYPES),
  mode: enumOf(SYNC_MODES).optional(),
  deleteScope: enumOf(DELETE_SCOPES),
  maxDeletes: z.string().refine((text) => {
    try {
      parseMaxDeletes(text);
      return true;
    } catch {
      return false;
    }
  }, 'must be a whole number of listings (e.g. 25) or a percentage from 0% to 100% (e.g. 10%)'),
  maxRejected: percent,
  pageSize: z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().int().min(1).max(10_000)),
  force: z.boolean(),
  ...wipeFlagsShape,
});

const FLAG_NAMES: Readonly<Record<string, string>> = {
  keyType: '--key-type',
  deleteScope: '--delete-scope',
  maxDeletes: '--max-deletes',
  maxRejected: '--max-rejected',
  pageSize: '--page-size',
  displayPolicy: '--display-policy',
  maxWipes: '--max-wipes',
  allowWipe: '--allow-wipe',
};

/** Turns parsed command-line options into a SyncRequest, or throws one UsageError naming every bad flag. */
export function toSyncRequest(raw: RawSyncOptions, extra: { dryRun: boolean; trigger?: SyncRequest['trigger'] }): SyncRequest {
  const parsed = optionsSchema.safeParse(raw);
  if (!parsed.success) {
    const given = new Map<string, unknown>(Object.entries(raw));
    const problems = parsed.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? '');
      const flag = FLAG_NAMES[key] ?? `--${key}`;
      const value = given.get(key);
      // A repeatable flag's message names the bad values itself.
      return `${flag} ${issue.message}${value === undefined || Array.isArray(value) ? '' : ` (got '${String(value)}')`}`;
    });
    throw new UsageError(problems.length === 1 ? `${problems[0]}` : `invalid sync options:\n  ${problems.join('\n  ')}`);
  }
  const o = parsed.data;
  const delimiter = o.delimiter === '\\t' || o.delimiter === 'tab' ? '\t' : o.delimiter;
  const feed = {
    source: o.feed,
    profile: o.profile,
    encoding: o.encoding,
    ...(o.mapping ? { mapping: o.mapping } : {}),
    ...(o.displayPolicy ? { displayPolicy: o.displayPolicy } : {}),
    ...(o.format ? { format: o.format } : {}),
    ...(delimiter ? { delimiter } : {}),
  };
  const replicate = replicateRequest(raw, feed, o.mode);
  return {
    chatbot: o.chatbot,
    feed,
    keyType: o.keyType,
    mode: o.mode ?? (replicate === undefined ? DEFAULT_MODE : 'upsert'),
    deleteScope: o.deleteScope,
    maxDeletes: o.maxDeletes,
    maxRejectedPercent: o.maxRejected,
    pageSize: o.pageSize,
    force: o.force,
    ...wipeRequest(raw),
    dryRun: extra.dryRun,
    trigger: extra.trigger ?? 'cli',
    ...(replicate === undefined ? {} : { replicate }),
  };
}
