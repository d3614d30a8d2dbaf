/**
 * A feed source as people see it, and the credentials a feed URL carries. A feed URL may hold
 * a user and password (`https://user:pass@host/feed`) or a token in its query string
 * (`?access_token=…`): the whole URL is used to fetch, and only `displaySource` is ever stored
 * or shown (run records, summaries, reports, log lines, error messages).
 */
import { stat } from 'node:fs/promises';

/** True for an http(s) URL (anything else is a local path). */
export function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/**
 * The size of a local feed file in bytes, or undefined for a URL; 0 for a file that cannot be
 * stat'ed (the feed reader reports why when it opens it). What size-based policies look at.
 */
export async function localFileBytes(source: string): Promise<number | undefined> {
  if (isUrl(source)) return undefined;
  return await stat(source).then(
    (info) => info.size,
    () => 0,
  );
}

/**
 * A local path as written; a URL without its user, password, query string and fragment. A
 * removed query or fragment shows as `?…`, so two pages of one feed still read as URLs.
 */
export function displaySource(source: string): string {
  if (!isUrl(source)) return source;
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    // A URL the parser refuses must not show its credentials either: cut at '?' or '#', drop everything up to the last '@'.
    const [beforeQuery = ''] = source.split(/[?#]/, 1);
    const cut = beforeQuery.replace(/^(https?:\/\/)[^?#]*@/i, '$1');
    return beforeQuery.length < source.length ? `${cut}?…` : cut;
  }
  const hidden = url.search !== '' || url.hash !== '' ? '?…' : '';
  return `${url.protocol}//${url.host}${url.pathname}${hidden}`;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The Authorization header for a URL that carries a user (and password), or undefined. Why:
 * the HTTP client ignores credentials written in a URL, while a user who wrote them expects
 * them to be used; they are sent only to that URL's origin (OData pages never leave it).
 */
export function basicAuthorization(url: string): string | undefined {
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return undefined;
  return `Basic ${Buffer.from(`${decoded(parsed.username)}:${decoded(parsed.password)}`, 'utf8').toString('base64')}`;
}

/**
 * Why a source cannot be stored as given, or undefined when it can: a URL carrying a user,
 * password, query string or fragment. A one-off sync only holds such a URL in memory; a schedule
 * would keep it in Redis (and show it in the dashboard's job data), and the design promises that a
 * feed URL's own credentials and query string are never stored.
 */
export function unstorableSourceReason(source: string): string | undefined {
  if (!isUrl(source)) return undefined;
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    return 'it is not a valid URL';
  }
  if (url.username !== '' || url.password !== '') return 'it carries a user and password';
  if (url.search !== '' || url.hash !== '') return 'it carries a query string';
  return undefined;
}
