/**
 * The time bounds that let a second start of a job take over a key claim from an earlier start
 * that may still be running (store/write-claims.ts): a start sends its create within the fence
 * of its last probe, and a request ends within the client's timeouts.
 */
import { DEFAULT_REQUEST_TIMEOUTS, type RequestTimeouts } from '../../src/api/client-contract.js';

/**
 * How long after its probe a start may still begin its create; later, it probes again first
 * (the API client refuses a call past its `sendBy`). Why 2 s: a create normally follows its
 * probe within milliseconds; only a slow lookup or a long wait for a request slot takes longer.
 */
export const SEND_FENCE_MS = 2_000;

/**
 * How long after a start's last probe its create may still be in flight: the fence, the longest
 * request the client's timeouts allow, and a second for clocks and scheduling. An earlier start
 * of a job holds its claim this long; 70 s with the default timeouts.
 */
export function sendWindowMs(timeouts: RequestTimeouts = DEFAULT_REQUEST_TIMEOUTS): number {
  return SEND_FENCE_MS + timeouts.connectMs + timeouts.headersMs + timeouts.bodyMs + 1_000;
}
