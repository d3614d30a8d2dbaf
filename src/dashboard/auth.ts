/**
 * Who may use the dashboard: HTTP basic auth (DASHBOARD_USER + DASHBOARD_PASSWORD) or a bearer
 * token (DASHBOARD_TOKEN), either accepted when both are configured. Every route goes through
 * this check, bull-board's assets and API included.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { ListingSyncError } from '../shared/errors.js';
import type { DashboardAuth } from './types.js';
import { ErrorCode } from '../shared/error-codes.js';

/** Maps an Authorization header to the caller's identity, or undefined when it is not accepted. */
export type Authenticate = (authorization: string | undefined) => string | undefined;

/**
 * Why hash before comparing: timingSafeEqual needs equal lengths, and comparing lengths first
 * would leak the secret's length. Equal-length digests make the comparison constant-time.
 */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

function parseBasic(value: string): { user: string; password: string } | undefined {
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The shortest DASHBOARD_PASSWORD accepted: shorter ones fall to guessing even behind the lockout. */
export const MIN_PASSWORD_LENGTH = 12;

/** The problem with a configured password's length, or undefined when it is long enough. */
export function passwordLengthProblem(auth: DashboardAuth): string | undefined {
  if (auth === 'insecure-local' || auth.password === undefined || auth.password === '') return undefined;
  const length = [...auth.password].length;
  if (length >= MIN_PASSWORD_LENGTH) return undefined;
  const characters = length === 1 ? 'character' : 'characters';
  return `DASHBOARD_PASSWORD is ${length} ${characters} long; it must have at least ${MIN_PASSWORD_LENGTH} (or use DASHBOARD_TOKEN)`;
}

/** Whether `auth` names usable credentials (a user with a password, or a token). */
export function hasCredentials(auth: DashboardAuth): boolean {
  if (auth === 'insecure-local') return false;
  return Boolean((auth.user && auth.password) || auth.token);
}

/** Builds the check for the configured credentials. Throws CONFIG when none are usable. */
export function createAuthenticate(auth: DashboardAuth): Authenticate {
  if (auth === 'insecure-local') return () => 'local';
  if (!hasCredentials(auth)) {
    throw new ListingSyncError(
      ErrorCode.CONFIG,
      'the dashboard needs DASHBOARD_USER and DASHBOARD_PASSWORD, or DASHBOARD_TOKEN (or --insecure-local)',
    );
  }
  const { user, password, token } = auth;
  return (authorization) => {
    if (authorization === undefined) return undefined;
    const space = authorization.indexOf(' ');
    if (space < 0) return undefined;
    const scheme = authorization.slice(0, space).toLowerCase();
    const value = authorization.slice(space + 1).trim();
    if (scheme === 'bearer' && token) return sameSecret(value, token) ? 'token' : undefined;
    if (scheme === 'basic' && user && password) {
      const given = parseBasic(value);
      if (!given) return undefined;
      // Both compared every time (no short-circuit), so a right user name is not observable.
      const userOk = sameSecret(given.user, user);
      const passwordOk = sameSecret(given.password, password);
      return userOk && passwordOk ? `user:${user}` : undefined;
    }
    return undefined;
  };
}

/** The WWW-Authenticate challenge for a 401 (basic when configured, so browsers prompt). */
export function challengeFor(auth: DashboardAuth): string {
  if (auth !== 'insecure-local' && auth.user && auth.password) return 'Basic realm="listing-sync dashboard", charset="UTF-8"';
  return 'Bearer realm="listing-sync dashboard"';
}
