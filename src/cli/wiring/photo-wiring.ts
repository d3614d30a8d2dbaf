/**
 * The hosted-photos side of a replicating sync: the media store (`--media-store`), the photo
 * memory of the source, the downloads' User-Agent (`--media-user-agent token`: the feed's current
 * access token) and the budget their bytes count against. A feed whose platform forbids
 * hot-linking (the mls-grid preset) is refused without a store unless `--hotlink-media`.
 */
import type { Config } from '../../config/config.js';
import { UsageError } from '../../shared/errors.js';
import { feedMediaRules } from '../../feed/reso-api/budget-spec.js';
import type { FeedRequestBudget } from '../../feed/reso-api/budget.js';
import type { TokenProvider } from '../../feed/reso-api/token-provider.js';
import { hostHolds } from '../../feed/media/host-holds.js';
import { openMediaStore } from '../../feed/media/open-media-store.js';
import { photoHosting, type PhotoHosting } from '../../feed/media/photo-hosting.js';
import type { FeedPhotos } from '../../feed/media/hosted-feed.js';
import { replicationFeedId } from '../../sync/replication-ids.js';
import type { Store } from '../../store/store.js';
import type { PhotoDeps } from '../../sync/replication-types.js';
import type { SyncRequest } from '../../sync/sync-request.js';
import { s3MediaStore } from '../../feed/media/s3-store.js';
import type { MediaStore } from '../../feed/media/media-store.js';
import { createMediaRecorder } from '../../store/media-metrics.js';

/** Largest photo stored: far above any listing photo, low enough that a wrong URL (a video) is refused. */
const MAX_PHOTO_BYTES = 50 * 1024 * 1024;

/** The media settings a request runs with: a fleet source's own store, else the process's (--media-store). */
export function mediaOf(config: Config, request: SyncRequest): { store?: string; baseUrl?: string; userAgent?: string } {
  const own = request.media;
  if (own === undefined) return config.media;
  const userAgent = own.userAgent ?? config.media.userAgent;
  return { store: own.store, baseUrl: own.baseUrl, ...(userAgent === undefined ? {} : { userAgent }) };
}

export interface PhotoWiring {
  config: Config;
  store: Store;
  request: SyncRequest;
  feedId: string;
  tokens: TokenProvider;
  budget?: FeedRequestBudget;
  refreshMedia: (listingKeys: readonly string[]) => Promise<Map<string, unknown[]>>;
  signal?: AbortSignal;
}

/** Refuses a run the feed's rules forbid: hot-linked media of a platform that requires hosting. */
export function checkMediaRules(config: Config, request: SyncRequest): void {
  const rules = feedMediaRules(request.replicate?.budget);
  if (rules?.mustHost !== true || mediaOf(config, request).store !== undefined || request.replicate?.hotlinkMedia === true) return;
  throw new UsageError(
    `--feed-budget ${request.replicate?.budget ?? ''}: the platform's rules forbid hot-linking its media URLs; pass --media-store ` +
      'file:///DIR or s3://BUCKET with --media-base-url URL (or LISTING_SYNC_MEDIA_STORE and LISTING_SYNC_MEDIA_BASE_URL) ' +
      'to host the photos, or --hotlink-media if the provider gave you leave to link them',
  );
}

/** The User-Agent of downloads: `token` is the feed's current access token (the Authorization header without its scheme). */
function userAgentOf(
  config: Config,
  request: SyncRequest,
  tokens: TokenProvider | undefined,
  signal?: AbortSignal,
): (() => Promise<string>) | undefined {
  const chosen = mediaOf(config, request).userAgent ?? feedMediaRules(request.replicate?.budget)?.userAgent;
  if (chosen === undefined) return undefined;
  if (chosen.trim().toLowerCase() !== 'token') return () => Promise.resolve(chosen);
  // Why nothing for a file feed: it has no access token to send; its downloads go with the default User-Agent.
  if (tokens === undefined) return undefined;
  return async () => (await tokens.authorization(signal)).replace(/^\S+\s+/, '');
}

/** The store `url` names, an S3 one at the configured endpoint and region. */
export function openConfiguredStore(config: Config, url: string): MediaStore {
  const { endpoint, region } = config.media.s3;
  return openMediaStore(url, (bucket, prefix) =>
    s3MediaStore({ bucket, prefix, url, ...(endpoint === undefined ? {} : { endpoint }), ...(region === undefined ? {} : { region }) }),
  );
}

/** The hosting step of a request over its store and the source's photo memory; undefined without a store. */
function hostingOf(
  wiring: Omit<PhotoWiring, 'tokens' | 'refreshMedia'> & { tokens?: TokenProvider; refreshMedia?: PhotoWiring['refreshMedia'] },
  recordsPending: boolean,
): { hosting: PhotoHosting; close: () => Promise<void> } | undefined {
  const { config, request, feedId } = wiring;
  const { store: storeUrl, baseUrl } = mediaOf(config, request);
  if (storeUrl === undefined || baseUrl === undefined) return undefined;
  const media = openConfiguredStore(config, storeUrl);
  const memory = wiring.store.photos;
  const userAgent = userAgentOf(config, request, wiring.tokens, wiring.signal);
  const recorder = createMediaRecorder(wiring.store.redis, config.redis.prefix);
  const hosting = photoHosting({
    baseUrl,
    memory: {
      recall: (identities) => memory.recall(feedId, identities),
      remember: (learned) => memory.remember(feedId, learned),
      // Why a file feed records none: every run reads the whole file again, and so every photo still missing.
      markPending: (change) => (recordsPending ? memory.markPending(request.chatbot, feedId, change) : Promise.resolve()),
      // Why a replicated page records nothing here: its records are keyed by ListingKey, the chatbot by
      // its own key (ListingId), so references are recorded row by row once mapped (referenced-feed.ts).
      // The page's ListingKeys are dropped instead: references the previous release kept by ListingKey,
      // superseded by the row's (a Withdrawn record's are gone with it).
      reference: (listings) =>
        recordsPending ? memory.unreference(request.chatbot, [...listings.keys()]) : memory.reference(request.chatbot, listings),
    },
    download: {
      store: media,
      holds: hostHolds(),
      timeoutMs: config.media.timeoutMs,
      maxBytes: MAX_PHOTO_BYTES,
      onSettled: (result, bytes) => recorder.observe({ ok: result.ok, bytes, ...(result.ok ? {} : { reason: result.reason }) }),
      ...(userAgent === undefined ? {} : { userAgent }),
      ...(wiring.signal === undefined ? {} : { signal: wiring.signal }),
    },
    ...(wiring.budget === undefined ? {} : { budget: wiring.budget }),
    ...(wiring.refreshMedia === undefined ? {} : { refreshMedia: wiring.refreshMedia }),
    dryRun: request.dryRun,
  });
  const close = async (): Promise<void> => {
    await recorder.close();
    await media.close();
  };
  return { hosting, close };
}

/** The photo deps of a replicating request, or undefined without a media store. */
export function photoWiring(wiring: PhotoWiring): PhotoDeps | undefined {
  checkMediaRules(wiring.config, wiring.request);
  const hosted = hostingOf(wiring, true);
  const baseUrl = mediaOf(wiring.config, wiring.request).baseUrl;
  if (hosted === undefined || baseUrl === undefined) return undefined;
  const { hosting, close } = hosted;
  const { photos } = wiring.store;
  const { chatbot } = wiring.request;
  return {
    hosting,
    pending: () => photos.pending(chatbot, wiring.feedId),
    pendingOf: (other) => photos.pending(other, wiring.feedId),
    baseUrl,
    reference: (listings) => photos.reference(chatbot, listings),
    forget: (keys) => photos.unreference(chatbot, keys),
    close,
  };
}

/**
 * The photos of a file feed's sync (SyncDeps.photosFor), or undefined without a media store: known
 * per feed (its path or URL without credentials), so every chatbot of a fleet source shares them.
 */
export function filePhotoWiring(
  wiring: Pick<PhotoWiring, 'config' | 'store'>,
): (request: SyncRequest, signal?: AbortSignal) => FeedPhotos | undefined {
  return (request, signal) => {
    const hosted = hostingOf({ ...wiring, request, feedId: replicationFeedId(request.feed.source), ...(signal ? { signal } : {}) }, false);
    if (hosted === undefined) return undefined;
    return {
      hosting: hosted.hosting,
      forget: (keys) => wiring.store.photos.unreference(request.chatbot, keys),
      close: hosted.close,
    };
  };
}
