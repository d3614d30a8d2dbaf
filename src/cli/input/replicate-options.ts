/**
 * The `--replicate` options (RESO Web API replication), shared by `sync` and `schedule add`:
 * declared once and parsed into the request's `replicate` part. Nothing here holds a credential:
 * the request may be stored by a schedule, and credentials come from the environment of the
 * process that runs it.
 */
import type { Command } from 'commander';
import { UsageError } from '../../shared/errors.js';
import { isUrl } from '../../feed/feed-source.js';
import { parseFeedBudget } from '../../feed/reso-api/budget-spec.js';
import type { SyncRequest } from '../../sync/sync-request.js';
import { integerFlag } from './integer-flag.js';
import { durationMs } from './option-values.js';

export interface ReplicateFlags {
  replicate?: boolean;
  sweep?: boolean;
  feedBudget?: string;
  feedPageSize?: string;
  overlap?: string;
  events?: boolean;
  hotlinkMedia?: boolean;
}

/** Default overlap: a record committed late by the MLS, stamped a little before the watermark, is still pulled. */
const DEFAULT_OVERLAP = '20m';

/** Adds --replicate and the options that only mean something with it. */
export function addReplicateOptions(command: Command): Command {
  return command
    .option(
      '--replicate',
      'pull from a RESO Web API (--feed is the Property resource, --profile reso; auth from FEED_OAUTH_* or ' +
        'FEED_TOKEN): everything on the first run, then what changed since the watermark; absent records are ' +
        'kept, off-market ones deleted',
    )
    .option(
      '--sweep',
      'with --replicate: also pull every key and delete managed listings whose key is gone (only when the sweep completes)',
    )
    .option(
      '--feed-budget <spec>',
      'with --replicate: request budget of the feed credential, held in Redis across processes (mls-grid, ' +
        'trestle, bridge, or 2/s,7200/h,40000/d,4GB/h)',
    )
    .option('--feed-page-size <n>', 'with --replicate: $top asked (default 1000)')
    .option('--overlap <duration>', `with --replicate: start this long before the watermark (default ${DEFAULT_OVERLAP})`)
    .option(
      '--events',
      'with --replicate: read the EntityEvent resource (RESO RCP-027) after the stored sequence and fetch only the ' +
        'listings it names; a first run or a gap in the retained events resyncs in full',
    )
    .option(
      '--hotlink-media',
      'with --replicate --feed-budget mls-grid: run without --media-store, the Images linking the MLS media URLs ' +
        "(only with the provider's written leave: its rules say subscribers host media themselves)",
    );
}

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * The `replicate` part of a request, or undefined without --replicate; a UsageError for flags
 * that need it, for a feed that is not a RESO resource URL, and for `--mode mirror`.
 */
export function replicateRequest(flags: ReplicateFlags, feed: SyncRequest['feed'], mode: string | undefined): SyncRequest['replicate'] {
  if (flags.replicate !== true) {
    const stray = (['sweep', 'feedBudget', 'feedPageSize', 'overlap', 'events', 'hotlinkMedia'] as const).find(
      (name) => flags[name] !== undefined,
    );
    if (stray !== undefined) throw new UsageError(`--${kebab(stray)} needs --replicate`);
    return undefined;
  }
  if (feed.profile !== 'reso') throw new UsageError('--replicate needs --profile reso (it reads RESO Web API records)');
  if (!isUrl(feed.source))
    throw new UsageError('--replicate needs --feed to be the OData resource URL, e.g. https://mls.example/odata/Property');
  // Why refused rather than ignored: a pull holds only what changed, so a replicating run always
  // plans as upsert; a user who asked for mirror must not believe absent listings get deleted.
  if (mode === 'mirror')
    throw new UsageError(
      '--replicate cannot be combined with --mode mirror: a pull holds only what changed, so absent listings are ' +
        'kept; off-market statuses delete, and --sweep deletes listings whose key is gone',
    );
  // Why refused rather than ignored: a RESO Web API answers JSON in UTF-8, so these would do nothing.
  const idle = [
    ['--format', feed.format],
    ['--delimiter', feed.delimiter],
    ['--encoding', feed.encoding === undefined || /^utf-?8$/i.test(feed.encoding) ? undefined : feed.encoding],
  ].find(([, value]) => value !== undefined);
  if (idle !== undefined) throw new UsageError(`${idle[0]} does nothing with --replicate (a RESO Web API answers JSON in UTF-8): drop it`);
  // Why refused rather than ignored: an event run sweeps by itself when its events name removals, and a resync always does.
  if (flags.events === true && flags.sweep === true)
    throw new UsageError(
      '--sweep does nothing with --events (an event run sweeps the keys when its events name removals, and a resync always does): drop it',
    );
  if (flags.feedBudget !== undefined) parseFeedBudget(flags.feedBudget);
  const pageSize = integerFlag('feed-page-size', flags.feedPageSize, 1, 100_000);
  return {
    sweep: flags.sweep === true,
    overlapMs: durationMs(flags.overlap ?? DEFAULT_OVERLAP, '--overlap'),
    ...(pageSize === undefined ? {} : { pageSize }),
    ...(flags.feedBudget === undefined ? {} : { budget: flags.feedBudget }),
    ...(flags.events === true ? { events: true } : {}),
    ...(flags.hotlinkMedia === true ? { hotlinkMedia: true } : {}),
  };
}
