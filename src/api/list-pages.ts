/**
 * The one pager over RealEstateList (endpoint 5, api-spec 4.1/4.4): how page n is asked for, how
 * a failed page read is retried, and when paging ends. Used by the remote snapshot (page 1, then
 * the pages VirtualCount announces, several at a time), a job's key lookup and
 * `listings list --all` (pages in order).
 *
 * A service that silently caps PageSize (answers fewer listings than asked while VirtualCount says
 * more exist) is followed, not trusted blindly: page 1 shows the cap k, and every later page is
 * asked for with PageSize k. Why page 1 is kept and the rest are asked again at k: page 1 starts at
 * offset 0 whatever size the service counts offsets in, but page n > 1 starts at (n − 1) × size, and
 * a capping service may count in the size asked for (skipping listings) or in its own (the usual
 * case). Asked at k, both readings agree: page n is listings (n − 1)·k … n·k − 1.
 */
import type { ApiClient, CallContext } from './client-contract.js';
import { retryApiRead, type ReadRetry } from './retry.js';
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
  /** Listings per page asked for; must not exceed the service's maximum (100 on the simulator). */
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
  /**
   * The page size pages are asked for and counted in: the one given, until a page 1 shows that
   * the service caps it (fewer listings than asked while VirtualCount says more exist); from then
   * on the size the service answered. Read it after page 1 to count the pages VirtualCount means.
   */
  readonly pageSize: number;
  /**
   * Page `page` at the current `pageSize`, retried as the options say. Read page 1 before any
   * other: it is the page that shows a cap.
   */
  read(page: number): Promise<ListPage>;
  /**
   * Pages 1, 2, … in order, ending after a page that comes back short or once the pages read
   * cover the VirtualCount the last page reported. Why both: a list that shrinks while it is
   * paged ends on a short page, one that grows is followed to its new end. A page 1 short under a
   * silent cap is no end: the pages after it are asked for at the cap.
   */
  pages(): AsyncGenerator<ListPage, void, undefined>;
}

/** The pages VirtualCount says there are: at least 1 (an empty list is one empty page). */
export function pageCountOf(virtualCount: number, pageSize: number): number {
  return Math.max(1, Math.ceil(virtualCount / pageSize));
}

/**
 * The page size to go on with after page 1 was asked for at `asked`: the number of listings it
 * held when that is fewer than asked (at least 1) while VirtualCount says more exist (a silent
 * cap), else `asked`. A page 1 short because the list is that short is no cap.
 */
export function cappedSize(asked: number, first: ListPage): number {
  const held = first.items.length;
  return held > 0 && held < asked && first.virtualCount > held ? held : asked;
}

/** A pager over `query`'s listings. */
export function listPager(api: ApiClient, query: ListQuery, options: ListPagerOptions): ListPager {
  const { signal } = options;
  let pageSize = options.pageSize;
  // Built once: the snapshot reads thousands of pages through one pager.
  const call: CallContext = {};
  if (options.listingKey !== undefined) call.listingKey = options.listingKey;
  if (signal !== undefined) call.signal = signal;
  const retry: ReadRetry | undefined = options.retry && (signal === undefined ? options.retry : { ...options.retry, signal });

  const once = async (page: number, asked: number): Promise<ListPage> => {
    const data = await api.listListings({ ...query, PageNumber: page, PageSize: asked }, call);
    return { page, items: data.List, virtualCount: data.VirtualCount };
  };
  const read = async (page: number): Promise<ListPage> => {
    const asked = pageSize;
    const result = await (retry === undefined ? once(page, asked) : retryApiRead(() => once(page, asked), retry));
    if (page === 1) pageSize = cappedSize(asked, result);
    return result;
  };

  return {
    get pageSize() {
      return pageSize;
    },
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
