/**
 * `sync --replicate` wiring: the replication deps of a request, from the config's feed
 * credentials (tokens), the Redis budget and source records. Credentials stay here and in the
 * token provider: the request (which a schedule may store) never holds them.
 */
import type { Config } from '../../config/config.js';
import { ListingSyncError, UsageError } from '../../shared/errors.js';
import { parseFeedBudget } from '../../feed/reso-api/budget-spec.js';
import { eventBounds, pullEvents } from '../../feed/reso-api/event-pull.js';
import { FeedClient } from '../../feed/reso-api/feed-client.js';
import { mediaUrlBeside, replicate, type ReplicateOptions } from '../../feed/reso-api/replicate.js';
import { readSourceMetadata } from '../../feed/reso-api/source-metadata.js';
import { replicationFields } from '../../feed/reso-api/replication-fields.js';
import { attachMediaFromResource } from '../../feed/reso-api/media.js';
import type { ResoRecord } from '../../feed/reso-api/types.js';
import { photoWiring } from './photo-wiring.js';
import { clientCredentialsTokens, staticBearerToken, type TokenProvider } from '../../feed/reso-api/token-provider.js';
import type { Logger } from '../../runtime/logger.js';
import type { Store } from '../../store/store.js';
import { feedBudgetId, replicationFeedId } from '../../sync/replication-ids.js';
import type { ReplicationDeps } from '../../sync/replication.js';
import type { SyncRequest } from '../../sync/sync-request.js';
import { keptMetadata } from '../../sync/kept-metadata.js';
import type { MetadataRead } from '../../sync/replication-types.js';
import { plainHttpHost, plainHttpRefusal } from '../../shared/plain-http.js';

function tokensOf(config: Config): TokenProvider {
  const { oauth, token } = config.feedAuth;
  if (oauth !== undefined) return clientCredentialsTokens(oauth);
  if (token !== undefined) return staticBearerToken(token);
  throw new ListingSyncError(
    'CONFIG',
    '--replicate needs the feed server credentials in the environment of the process that pulls (sync, or the ' +
      'worker running a replicating schedule): set FEED_OAUTH_TOKEN_URL, FEED_OAUTH_CLIENT_ID and ' +
      'FEED_OAUTH_CLIENT_SECRET (or FEED_TOKEN)',
  );
}

/**
 * A factory of replication deps for `--replicate` requests (SyncDeps.replicationFor): the CLI's
 * sync and a worker's scheduled sync build them the same way. Throws CONFIG when the process has
 * no feed credentials, before anything is read.
 */
export function replicationWiring(wiring: {
  config: Config;
  store: Store;
  logger: Logger;
}): (request: SyncRequest, signal?: AbortSignal) => ReplicationDeps {
  return (request, signal) => {
    const options = request.replicate;
    if (options === undefined) throw new Error('replicationWiring: the request does not replicate');
    const feed = request.feed.source;
    const tokens = tokensOf(wiring.config);
    // Why before anything is opened: the bearer token would go to this URL in clear.
    const clear = plainHttpHost(feed, wiring.config.plainHttpHosts);
    if (clear !== undefined) throw new UsageError(plainHttpRefusal('the feed bearer token', '--feed', clear));
    const oauth = wiring.config.feedAuth.oauth;
    const budget =
      options.budget === undefined ? undefined : wiring.store.feedBudget(feedBudgetId(feed, oauth), parseFeedBudget(options.budget));
    const common: ReplicateOptions = {
      propertyUrl: feed,
      tokens,
      ...(budget === undefined ? {} : { budget }),
      overlapMs: options.overlapMs,
      ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
      ...(signal === undefined ? {} : { signal }),
      logger: wiring.logger,
    };
    const client = (): FeedClient => new FeedClient(common);
    const { feedSources } = wiring.store;
    const feedId = replicationFeedId(feed);
    const metadata = (): Promise<MetadataRead> =>
      keptMetadata(wiring.store.feedMetadata, feed, async () => {
        const reader = client();
        const read = await readSourceMetadata(reader, feed, { pageSize: common.pageSize ?? 1000, logger: wiring.logger });
        return { ...read, requests: reader.requests, bytes: reader.bytes };
      });
    const photos = photoWiring({
      config: wiring.config,
      store: wiring.store,
      request,
      feedId,
      tokens,
      ...(budget === undefined ? {} : { budget }),
      ...(signal === undefined ? {} : { signal }),
      refreshMedia: async (keys) => {
        // Why the kept metadata: the records are keyed, and their photos paged, by the server's own field names.
        const fields = replicationFields((await metadata()).metadata);
        const rows: ResoRecord[] = keys.map((key) => ({ [fields.key]: key }));
        await attachMediaFromResource(client(), rows, { mediaUrl: mediaUrlBeside(feed), pageSize: options.pageSize ?? 1000, fields });
        return new Map(rows.map((row) => [String(row[fields.key]), Array.isArray(row.Media) ? (row.Media as unknown[]) : []]));
      },
    });
    return {
      feedId,
      ...(photos === undefined ? {} : { photos }),
      sources: feedSources,
      metadata,
      start: ({ watermark, sweep, keyFields, recheckKeys, ...known }) =>
        replicate({
          ...common,
          ...known,
          sweep,
          ...(recheckKeys === undefined ? {} : { recheckKeys }),
          ...(keyFields === undefined ? {} : { keyFields }),
          ...(watermark === undefined ? {} : { watermark }),
        }),
      ...(options.events === true
        ? {
            events: {
              bounds: () => eventBounds(common),
              pull: (after, known, recheck = []) =>
                pullEvents({ ...common, ...known, after, ...(recheck.length === 0 ? {} : { recheckKeys: recheck }) }),
              advance: (chatbot, feedId, sequence, mode) => feedSources.advanceEventSequence(chatbot, feedId, sequence, mode),
            },
          }
        : {}),
    };
  };
}
