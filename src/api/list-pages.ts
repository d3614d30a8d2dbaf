/**
 * The one pager over RealEstateList (endpoint 5, api-spec 4.1/4.4): how page n is asked for, how
 * a failed page read is retried, and when paging ends. Used by the remote snapshot (page 1, then
 * the pages VirtualCount announces, several at a time), a job's key lookup and
 * `listings list --all` (pages in order).
 */
import type { ApiClient, CallContext } from './client-contract.js';
import { retryRead, type ReadRetry } from './retry.js';
import type { ListingRead, ListRequest } from './schemas.js';

/** What to list: the chatbot and any filters. The pager adds PageNumber and PageSize. */
export type ListQuery = Omit<ListRequest, 'PageNumber' | 'PageSize'>;

/** One page as the client returned it (validated). */
export interface ListPage {
  /** 1-based page number. */
  page: number;
  items: ListingRead[];
  /** The total the service reported with this page. */
  virtualCount: number;
}

export interface ListPagerOptions {
  /** Listings per page; must not exceed the service's maximum (100 on the simulator). */
  pageSize: number;
  /**
   * How a failed page read is tried again; absent: each page is asked for once (the CLI: the
   * person who typed the command sees the error and runs it again).
   */
  retry?: Omit<ReadRetry, 'signal'>;
  /** Aborts page requests and the waits between retries. */
  signal?: AbortSignal;
  /** The listing key errors name (a lookup's key). */
  listingKey?: string;
}

export interface ListPager {
  readonly pageSize: number;
  /** Page `page`, retried as the options say. */
  read(page: number): Promise<ListPage>;
  /**
   * Pages 1, 2, … in order, ending after a page that comes back short or once the pages read
   * cover the VirtualCount the last page reported. Why both: a list that shrinks while it is
   * paged ends on a short page, one that grows is followed to its new end.
   */
  pages(): AsyncGenerator<ListPage, void, undefined>;
}

/** The pages VirtualCount says there are: at least 1 (an empty list is one empty page). */
export function pageCountOf(virtualCount: number, pageSize: number): number {
  return Math.max(1, Math.ceil(virtualCount / pageSize));
}

/** A pager over `query`'s listings. */
export function listPager(api: ApiClient, query: ListQuery, options: ListPagerOptions): ListPager {
  const { pageSize, signal } = options;
  // Built once: the snapshot reads thousands of pages through one pager.
  const call: CallContext = {};
  if (options.listingKey !== undefined) call.listingKey = options.listingKey;
  if (signal !== undefined) call.signal = signal;
  const retry: ReadRetry | undefined = options.retry && (signal === undefined ? options.retry : { ...options.retry, signal });

  const once = async (page: number): Promise<ListPage> => {
    const data = await api.listListings({ ...query, PageNumber: page, PageSize: pageSize }, call);
    return { page, items: data.List, virtualCount: data.VirtualCount };
  };
  const read = (page: number): Promise<ListPage> => (retry === undefined ? once(page) : retryRead(() => once(page), retry));

  return {
    pageSize,
    read,
    async *pages() {
      for (let page = 1; ; page += 1) {
        const result = await read(page);
        yield result;
        if (result.items.length < pageSize || page * pageSize >= result.virtualCount) return;
      }
    },
  };
}
