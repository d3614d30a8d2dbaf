/**
 * Whether a URL would carry credentials in clear: plain http to a host that is not this machine.
 * Why loopback stays allowed: the simulators and tests listen on 127.0.0.1, and a request that
 * never leaves the machine cannot be read on the wire. Everything else must be https.
 */

/** localhost, *.localhost, 127.0.0.0/8 and ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * The host a credential would be sent to in clear over `url`, or undefined when `url` is https,
 * loopback, one of `allowedHosts`, or not a URL at all (its own check says so).
 */
export function plainHttpHost(url: string, allowedHosts: readonly string[] = []): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' || isLoopbackHost(parsed.hostname)) return undefined;
  const host = parsed.hostname.toLowerCase();
  return allowedHosts.includes(host) ? undefined : host;
}

/** The one sentence: what would be sent in clear, where, and how to fix it. */
export function plainHttpRefusal(what: string, setting: string, host: string): string {
  return (
    `${setting} is plain http to ${host}, which would send ${what} in clear: use an https:// URL ` +
    '(plain http is allowed only to this machine: 127.0.0.1, ::1 or localhost)'
  );
}
