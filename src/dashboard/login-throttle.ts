/**
 * The dashboard's door against guessing: more than MAX_FAILURES wrong credentials from one client
 * (its remote address) within WINDOW_MS lock that client out for LOCKOUT_MS, during which every
 * request of it is answered 429, the right credentials included (else a guesser would learn the
 * password the moment it is right). Each lockout is logged once, never with what was tried.
 */
import type { Logger } from '../runtime/logger.js';

export const MAX_FAILURES = 10;
export const WINDOW_MS = 60_000;
export const LOCKOUT_MS = 60_000;
/** Clients remembered at most; the oldest are forgotten first (a flood of addresses cannot grow memory). */
const MAX_CLIENTS = 10_000;

interface ClientState {
  /** When each wrong attempt within the window was made. */
  failures: number[];
  lockedUntil: number;
}

export interface LoginThrottle {
  /** Milliseconds `client` is still locked out (0: it may try). */
  lockedFor(client: string): number;
  /** Counts a wrong attempt of `client`; locks it (and logs the lockout once) past the limit. */
  failed(client: string): void;
}

export function createLoginThrottle(logger: Logger, now: () => number = Date.now): LoginThrottle {
  const clients = new Map<string, ClientState>();

  function stateOf(client: string): ClientState {
    let state = clients.get(client);
    if (state === undefined) {
      if (clients.size >= MAX_CLIENTS) {
        const oldest = clients.keys().next().value;
        if (oldest !== undefined) clients.delete(oldest);
      }
      state = { failures: [], lockedUntil: 0 };
    } else clients.delete(client);
    clients.set(client, state); // most recently seen last
    return state;
  }

  return {
    lockedFor(client) {
      const state = clients.get(client);
      return state === undefined ? 0 : Math.max(0, state.lockedUntil - now());
    },
    failed(client) {
      const at = now();
      const state = stateOf(client);
      if (state.lockedUntil > at) return;
      state.failures = state.failures.filter((when) => at - when < WINDOW_MS);
      state.failures.push(at);
      if (state.failures.length <= MAX_FAILURES) return;
      state.failures = [];
      state.lockedUntil = at + LOCKOUT_MS;
      logger.warn(
        { client, failures: MAX_FAILURES + 1, lockoutSeconds: LOCKOUT_MS / 1000 },
        `dashboard: more than ${MAX_FAILURES} wrong credentials from ${client} within ${WINDOW_MS / 1000} s; ` +
          `answering it 429 for ${LOCKOUT_MS / 1000} s`,
      );
    },
  };
}
