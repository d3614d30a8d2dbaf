/**
 * The ids replication keeps its Redis records under: one per (chatbot, feed) source and one per
 * feed credential's request budget. `sync --replicate` and `sources` must compute the same ids,
 * so both come from here.
 */
import { stableFeedId } from '../store/feed-sources.js';

/**
 * The source id of a feed URL: its hash without user, password or fragment. Why the query is
 * kept: it chooses the records pulled (e.g. `?$filter=City eq 'X'`), so two queries are two
 * sources with two watermarks; why credentials are dropped: a rotated password is the same feed.
 */
export function replicationFeedId(feedUrl: string): string {
  try {
    const url = new URL(feedUrl);
    url.username = '';
    url.password = '';
    url.hash = '';
    return stableFeedId(url.toString());
  } catch {
    return stableFeedId(feedUrl);
  }
}

/** The client-credentials identity of a feed (what a platform budgets against). */
export interface FeedClientIdentity {
  tokenUrl: string;
  clientId: string;
}

/**
 * The budget id of a feed credential. Why by credential and not by feed: an MLS counts requests
 * per client id whatever resource they go to, so every feed pulled with one client shares one
 * budget; without OAuth (a static token) the feed's host is the best stand-in.
 */
export function feedBudgetId(feedUrl: string, client: FeedClientIdentity | undefined): string {
  if (client !== undefined) return stableFeedId(client.tokenUrl, client.clientId);
  let host = feedUrl;
  try {
    host = new URL(feedUrl).host;
  } catch {
    // Not a URL: the text itself names the feed.
  }
  return stableFeedId(host, '');
}
