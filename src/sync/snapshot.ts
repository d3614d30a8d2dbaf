/**
 * Reads everything a chatbot holds (RealEstateList, paged) into a RemoteSnapshot, and says
 * whether that read can be trusted for deletes (complete) or not (incompleteReasons).
 */
import pLimit from 'p-limit';
import type { ApiClient } from '../api/client-contract.js';
import { normaliseReadItem } from '../api/normalise-read.js';
import type { ListingRead } from '../api/schemas.js';
import type { RemoteSnapshot } from '../domain/remote.js';
import { coerceError } from '../errors.js';
import { DEFAULT_READ_RETRY, retryRead, type ReadRetryOptions } from './retry-read.js';

export interface SnapshotOptions {
  chatbot: string;
  /** Largest page size the service accepts (the simulator's default maximum is 100). */
  pageSize: number;
  /** Pages in flight at once once VirtualCount is known. */
  concurrency: number;
  /** Whole re-reads allowed when the list changed while it was paged. */
  maxRereads: number;
  retry?: ReadRetryOptions;
  /** Called after every page with items read so far and the expected total. */
  onProgress?: (read: number, total: number) => void;
  signal?: AbortSignal;
}

export const DEFAULT_SNAPSHOT_OPTIONS = { pageSize: 100, concurrency: 4, maxRereads: 2 } as const;

interface PageResult {
  page: number;
  items: ListingRead[];
  virtualCount: number;
}

interface ReadAttempt {
  items: ListingRead[];
  virtualCount: number;
  failedPages: Array<{ page: number; error: string }>;
  drift: string[];
}

async function readOnce(api: ApiClient, options: SnapshotOptions): Promise<ReadAttempt> {
  const retry = { ...(options.retry ?? DEFAULT_READ_RETRY), signal: options.signal };
  const readPage = (page: number): Promise<PageResult> =>
    retryRead(async () => {
      const data = await api.listListings(
        { SerialNumber: options.chatbot, PageNumber: page, PageSize: options.pageSize },
        options.signal ? { signal: options.signal } : {},
      );
      return { page, items: data.List, virtualCount: data.VirtualCount };
    }, retry);

  // The first page must succeed: without VirtualCount there is nothing to check against.
  const first = await readPage(1);
  const total = first.virtualCount;
  const pageCount = Math.max(1, Math.ceil(total / options.pageSize));
  let read = first.items.length;
  options.onProgress?.(read, total);

  const limit = pLimit(options.concurrency);
  const failedPages: ReadAttempt['failedPages'] = [];
  const rest = await Promise.all(
    Array.from({ length: pageCount - 1 }, (_, i) => i + 2).map((page) =>
      limit(async () => {
        try {
          const result = await readPage(page);
          read += result.items.length;
          options.onProgress?.(read, total);
          return result;
        } catch (error) {
          failedPages.push({ page, error: coerceError(error).message });
          return undefined;
        }
      }),
    ),
  );
  const pages = [first, ...rest.filter((p): p is PageResult => p !== undefined)];
  const drift: string[] = [];
  const changedCounts = pages.filter((p) => p.virtualCount !== total);
  if (changedCounts.length > 0) {
    drift.push(`VirtualCount changed while paging (${total} on page 1, ${changedCounts[0]?.virtualCount} on page ${changedCounts[0]?.page})`);
  }
  const seenOnPage = new Map<number, number>();
  const items: ListingRead[] = [];
  for (const page of pages) {
    for (const item of page.items) {
      const earlier = seenOnPage.get(item.ID);
      if (earlier !== undefined) {
        drift.push(`listing ID ${item.ID} seen on pages ${earlier} and ${page.page}`);
        continue;
      }
      seenOnPage.set(item.ID, page.page);
      items.push(item);
    }
  }
  if (failedPages.length === 0 && items.length !== total) {
    drift.push(`read ${items.length} listings but VirtualCount is ${total}`);
  }
  return { items, virtualCount: total, failedPages, drift };
}

/**
 * Pages through the chatbot's listings. A snapshot whose list drifted while it was paged is
 * re-read up to `maxRereads` times; if it still drifts, or a page failed after its retries,
 * it is returned with complete=false so that no delete is ever planned from it.
 */
export async function readRemoteSnapshot(api: ApiClient, options: SnapshotOptions): Promise<RemoteSnapshot> {
  let attempt = await readOnce(api, options);
  for (let reread = 0; reread < options.maxRereads && attempt.failedPages.length === 0 && attempt.drift.length > 0; reread += 1) {
    attempt = await readOnce(api, options);
  }
  const incompleteReasons = [
    ...attempt.failedPages.map((f) => `page ${f.page} could not be read: ${f.error}`),
    ...attempt.drift.slice(0, 5),
  ];
  if (attempt.drift.length > 5) incompleteReasons.push(`… and ${attempt.drift.length - 5} more signs of drift`);
  // Keep items in service order (by ID) so downstream output is deterministic.
  const listings = attempt.items.sort((a, b) => a.ID - b.ID).map(normaliseReadItem);
  return {
    chatbot: options.chatbot,
    listings,
    virtualCount: attempt.virtualCount,
    complete: incompleteReasons.length === 0,
    incompleteReasons,
  };
}
