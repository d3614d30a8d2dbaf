/**
 * `sync --replicate`: its flags parsed into the request's `replicate` part, and the replication
 * deps wired from the config's feed credentials (tokens), the Redis budget and source records.
 * Credentials stay here and in the token provider: the request (which a schedule may store) never
 * holds them.
 */
import type { Config } from '../config.js';
import { ListingSyncError, UsageError } from '../errors.js';
import { isUrl } from '../feed/feed-source.js';
import { parseFeedBudget } from '../feed/reso-api/budget-spec.js';
import { replicate } from '../feed/reso-api/replicate.js';
import { clientCredentialsTokens, staticBearerToken, type TokenProvider } from '../feed/reso-api/token-provider.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/store.js';
import { feedBudgetId, replicationFeedId } from '../sync/replication-ids.js';
import type { ReplicationDeps } from '../sync/replication.js';
import type { SyncRequest } from '../sync/sync-request.js';
import { integerFlag } from './integer-flag.js';
import { durationMs } from './option-values.js';

export interface ReplicateFlags {
  replicate?: boolean;
  sweep?: boolean;
  feedBudget?: string;
  feedPageSize?: string;
  overlap?: string;
}

/** Default overlap: a record committed late by the MLS, stamped a little before the watermark, is still pulled. */
const DEFAULT_OVERLAP = '20m';

/** The `replicate` part of a request, or undefined without --replicate; a UsageError for flags that need it or bad values. */
export function replicateRequest(flags: ReplicateFlags, request: SyncRequest): SyncRequest['replicate'] {
  if (flags.replicate !== true) {
    const stray = (['sweep', 'feedBudget', 'feedPageSize', 'overlap'] as const).find((name) => flags[name] !== undefined);
    if (stray !== undefined) throw new UsageError(`--${stray.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} needs --replicate`);
    return undefined;
  }
  if (request.feed.profile !== 'reso') throw new UsageError('--replicate needs --profile reso (it reads RESO Web API records)');
  if (!isUrl(request.feed.source))
    throw new UsageError('--replicate needs --feed to be the OData resource URL, e.g. https://mls.example/odata/Property');
  if (flags.feedBudget !== undefined) parseFeedBudget(flags.feedBudget);
  const pageSize = integerFlag('feed-page-size', flags.feedPageSize, 1, 100_000);
  return {
    sweep: flags.sweep === true,
    overlapMs: durationMs(flags.overlap ?? DEFAULT_OVERLAP, '--overlap'),
    ...(pageSize === undefined ? {} : { pageSize }),
  };
}

function tokensOf(config: Config): TokenProvider {
  const { oauth, token } = config.feedAuth;
  if (oauth !== undefined) return clientCredentialsTokens(oauth);
  if (token !== undefined) return staticBearerToken(token);
  throw new ListingSyncError(
    'CONFIG',
    '--replicate needs the feed server credentials: set FEED_OAUTH_TOKEN_URL, FEED_OAUTH_CLIENT_ID and FEED_OAUTH_CLIENT_SECRET (or FEED_TOKEN)',
  );
}

/** The replication deps of a `--replicate` request. */
export function replicationDeps(
  request: SyncRequest,
  flags: ReplicateFlags,
  wiring: { config: Config; store: Store; logger: Logger; signal: AbortSignal },
): ReplicationDeps {
  const options = request.replicate;
  if (options === undefined) throw new Error('replicationDeps: the request does not replicate');
  const feed = request.feed.source;
  const tokens = tokensOf(wiring.config);
  const oauth = wiring.config.feedAuth.oauth;
  const budget =
    flags.feedBudget === undefined ? undefined : wiring.store.feedBudget(feedBudgetId(feed, oauth), parseFeedBudget(flags.feedBudget));
  return {
    feedId: replicationFeedId(feed),
    sources: wiring.store.feedSources,
    start: ({ watermark, sweep }) =>
      replicate({
        propertyUrl: feed,
        tokens,
        ...(budget === undefined ? {} : { budget }),
        sweep,
        ...(watermark === undefined ? {} : { watermark }),
        overlapMs: options.overlapMs,
        ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
        signal: wiring.signal,
        logger: wiring.logger,
      }),
  };
}
