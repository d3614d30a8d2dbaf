/**
 * Where a request goes, as undici's `Dispatcher.request` takes it (origin and path), parsed once
 * per address rather than once per request.
 *
 * Why: undici's top-level `request(url, …)` parses the URL and copies the options for every call;
 * in a migration that is every create, ~30 µs each of the worker's main thread (a CPU profile of
 * `sync --work`), the thread whose spare time keeps the request slots busy. The client sends to
 * a handful of addresses (one per endpoint, and a table listing per project), so a small cache
 * holds them all.
 */

export interface RequestTarget {
  /** `scheme://host[:port]`. */
  origin: string;
  /** Path and query, e.g. `/api/v1/listings?x=1`. */
  path: string;
}

/** More addresses than a client ever uses at once; past it the cache starts over (it is only a cache). */
const MOST_TARGETS = 64;

/** A function from an absolute URL to its origin and path, remembering the last MOST_TARGETS. */
export function requestTargets(): (url: string) => RequestTarget {
  const known = new Map<string, RequestTarget>();
  return (url) => {
    const cached = known.get(url);
    if (cached !== undefined) return cached;
    const parsed = new URL(url);
    const target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
    if (known.size >= MOST_TARGETS) known.clear();
    known.set(url, target);
    return target;
  };
}
