/**
 * Response security headers and the loopback rules of --insecure-local.
 *
 * CSP: our own pages need nothing but our stylesheet and same-origin forms, so everything else is
 * 'none'. bull-board's prebuilt React UI (only under /queues) sets inline style attributes and
 * fetches its JSON API, so that path alone allows inline styles and same-origin connections; it
 * still runs no inline script and loads nothing from other origins (its web fonts fail, harmlessly).
 */

export const PAGE_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

export const BULL_BOARD_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src " +
  "'self' data:; connect-src 'self'; object-src 'none'; form-action 'self'; base-uri 'self'; frame-ancestors " +
  "'none'";

/** Headers on every response; `bullBoard` picks the CSP for /queues. */
export function securityHeaders(bullBoard: boolean): Record<string, string> {
  return {
    'content-security-policy': bullBoard ? BULL_BOARD_CSP : PAGE_CSP,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    // Why not no-referrer: under it browsers send `Origin: null` on our own form POSTs, which the
    // origin check (csrf.ts) must refuse. same-origin keeps URLs (run ids, keys) off other sites.
    'referrer-policy': 'same-origin',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    // Why no-store everywhere: pages show run data behind credentials; no proxy or shared cache
    // may keep a copy, and the back button must not show a stale retry form.
    'cache-control': 'no-store',
  };
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', '::1', '[::1]', 'localhost']);

/** Whether a bind address or Host name is loopback (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  const name = host.toLowerCase();
  return LOOPBACK_NAMES.has(name) || /^127(?:\.\d{1,3}){3}$/.test(name);
}

/**
 * The host name of a Host header ("127.0.0.1:8080" → "127.0.0.1", "[::1]:80" → "[::1]").
 * Used in --insecure-local mode to refuse requests for other names: a DNS-rebinding page would
 * reach 127.0.0.1 under its own name, and with no credentials to stop it, the Host check does.
 */
export function hostName(hostHeader: string | undefined): string | undefined {
  if (hostHeader === undefined || hostHeader === '') return undefined;
  if (hostHeader.startsWith('[')) {
    const end = hostHeader.indexOf(']');
    return end < 0 ? undefined : hostHeader.slice(0, end + 1);
  }
  const colon = hostHeader.indexOf(':');
  return colon < 0 ? hostHeader : hostHeader.slice(0, colon);
}
