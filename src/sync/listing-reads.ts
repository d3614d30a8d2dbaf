/**
 * Reading a chatbot's listings for `listing-sync listings list`: one page as asked, or every page
 * in order through the project's one pager (each page asked for once: a person watching runs it
 * again). VirtualCount is page 1's, which the caller checks the count against.
 */
import type { ApiClient } from '../api/client-contract.js';
import { listPager } from '../api/list-pages.js';
import type { ListingRead, ListRequest } from '../api/schemas.js';

/** A listing as read, in the shape a listing is written in (what `--json` shows beside the raw items). */
export { normaliseReadItem } from '../api/normalise-read.js';

/** Page size used by --all when --page-size is not given: the simulator's (and a typical) maximum. */
export const ALL_PAGE_SIZE = 100;

export interface ListResult {
  items: ListingRead[];
  virtualCount: number;
}

async function readAllPages(client: ApiClient, request: ListRequest): Promise<ListResult> {
  const { PageNumber: _page, PageSize: pageSize = ALL_PAGE_SIZE, ...query } = request;
  const items: ListingRead[] = [];
  let virtualCount: number | undefined;
  for await (const page of listPager(client, query, { pageSize }).pages()) {
    virtualCount ??= page.virtualCount;
    items.push(...page.items);
  }
  return { items, virtualCount: virtualCount ?? 0 };
}

/** The page `request` names, or with `all` every page. */
export async function readListings(client: ApiClient, request: ListRequest, all: boolean): Promise<ListResult> {
  if (all) return readAllPages(client, request);
  const data = await client.listListings(request);
  return { items: data.List, virtualCount: data.VirtualCount };
}
