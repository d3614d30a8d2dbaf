/**
 * The simulator's call log and in-flight counter: what tests assert about the traffic a client
 * produced (how many writes, how many requests at once).
 */
import { ENDPOINT_NAMES, type EndpointName } from './spec/endpoints.js';
import type { SimCallLog } from './types.js';

/** Endpoints that change something; `writeCalls()` counts requests to these. */
export const WRITE_ENDPOINTS: ReadonlySet<EndpointName> = new Set<EndpointName>([
  'createListing',
  'updateListing',
  'deleteListings',
  'editChatbot',
  'editKnowledge',
]);

export class SimMetrics {
  private log: SimCallLog[] = [];
  private current = 0;
  private peak = 0;

  record(entry: SimCallLog): void {
    this.log.push(entry);
  }

  calls(): SimCallLog[] {
    return [...this.log];
  }

  callCounts(): Record<EndpointName, number> {
    const counts = Object.fromEntries(ENDPOINT_NAMES.map((name) => [name, 0])) as Record<EndpointName, number>;
    for (const entry of this.log) counts[entry.endpoint] += 1;
    return counts;
  }

  writeCalls(): number {
    return this.log.filter((entry) => WRITE_ENDPOINTS.has(entry.endpoint)).length;
  }

  /** Marks a request as started; returns the function that marks it finished (idempotent). */
  enter(): () => void {
    this.current += 1;
    this.peak = Math.max(this.peak, this.current);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.current -= 1;
    };
  }

  inFlight(): number {
    return this.current;
  }

  maxInFlight(): number {
    return this.peak;
  }

  /** Clears the call log and the in-flight peak (the peak restarts at what is in flight now). */
  reset(): void {
    this.log = [];
    this.peak = this.current;
  }
}
