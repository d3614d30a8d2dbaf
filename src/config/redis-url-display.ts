/** A Redis URL's password: found (to scrub it from output) and masked (to show the URL). */

/** decodeURIComponent, or the text as it is when it is not valid percent-encoding. */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The userinfo password of a URL, as written (percent-encoded), or undefined. */
export function redisPassword(url: string): string | undefined {
  const match = USERINFO.exec(url);
  return match?.[2] === undefined || match[2] === '' ? undefined : match[2];
}

// scheme://user:password@ — greedy up to the last '@' so an unencoded '@' in the password is masked too.
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/[^/@:]*:)(.*)@/i;

/** Redis URL with the password replaced by '***' for display (works on malformed URLs too). */
export function displayRedisUrl(url: string): string {
  return url.replace(USERINFO, (_all, head: string, password: string) => (password === '' ? `${head}@` : `${head}***@`));
}

/** REDIS_URL with REDIS_PASSWORD put in when the URL carries no password of its own (the URL's wins). */
export function withRedisPassword(url: string, password: string | undefined): string {
  if (password === undefined || redisPassword(url) !== undefined) return url;
  return url.replace(
    /^(rediss?:\/\/)(?:([^/@:]*)@)?/i,
    (_all, scheme: string, user?: string) => `${scheme}${user ?? ''}:${encodeURIComponent(password)}@`,
  );
}
