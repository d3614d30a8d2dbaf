/**
 * Redis turning us away for a reason a person must fix — a wrong password, none given, a missing
 * ACL permission, a TLS certificate Node does not trust — named as such, in one line with the fix.
 * Why: ioredis reports each of these as the connection closing ("Connection is closed."), which
 * reads like a Redis that is down and sends people to restart a Redis that is fine.
 */

export type RedisRefusalKind = 'wrong-password' | 'no-password' | 'no-permission' | 'untrusted-certificate';

export interface RedisRefusal {
  kind: RedisRefusalKind;
  /** What Redis (or TLS) said and how to fix it, without the address (the caller names it). */
  text: string;
}

/** Node's codes for a certificate chain or name it does not accept. */
const TLS_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

const DOCS = 'see docs/redis-security.md';

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}

function refusal(kind: RedisRefusalKind, what: string, fix: string): RedisRefusal {
  return { kind, text: `${what}: ${fix}; ${DOCS}` };
}

/** The refusal `thrown` is (or was caused by), or undefined when it is something else. */
export function redisRefusal(thrown: unknown, setting = 'REDIS_URL'): RedisRefusal | undefined {
  for (let error = thrown, depth = 0; error instanceof Error && depth < 4; error = error.cause, depth += 1) {
    const message = firstLine(error.message);
    const code = (error as { code?: unknown }).code;
    if (/^WRONGPASS\b/.test(message) || /invalid (username-)?password/i.test(message))
      return refusal(
        'wrong-password',
        'refused the password (WRONGPASS)',
        `set the right one in ${setting} (redis://USER:PASSWORD@host:port, percent-encoded), as requirepass or the ACL user has it`,
      );
    if (/^NOAUTH\b/.test(message))
      return refusal(
        'no-password',
        'requires a password (NOAUTH) and none was given',
        `put it in ${setting}: redis://:PASSWORD@host:port, or redis://USER:PASSWORD@host:port for an ACL user`,
      );
    if (/^NOPERM\b/.test(message))
      return refusal(
        'no-permission',
        `refused a command for want of an ACL permission (${message})`,
        `grant the user in ${setting} the prefix's keys (~PREFIX:*), its channels and the commands listing-sync uses`,
      );
    if (typeof code === 'string' && TLS_CODES.has(code))
      return refusal(
        'untrusted-certificate',
        `presented a TLS certificate that is not trusted (${code})`,
        "give Node the CA that signed it (NODE_EXTRA_CA_CERTS=/path/to/ca.pem), or fix the certificate's host name",
      );
  }
  return undefined;
}
