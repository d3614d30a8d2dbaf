/**
 * Fault decisions per resource request: scripted statuses first, then seeded rates. Each
 * request draws the same two values, so the n-th request gets the same decision for a seed.
 */
import { seededRandom } from '../faults.js';
import type { ResoAnswer, ResoFaults } from './types.js';

/** A scripted status that serves the request as usual. */
export const SERVED = 200;

export class ResoFaultPlan {
  private faults: ResoFaults;
  private script: number[];
  private draws: () => number;

  constructor(faults: ResoFaults = {}) {
    this.faults = { ...faults };
    this.script = [...(faults.nextStatuses ?? [])];
    this.draws = seededRandom(faults.seed ?? 1);
  }

  /** The faults as configured, with the scripted statuses not yet answered. */
  current(): ResoFaults {
    return { ...this.faults, nextStatuses: [...this.script] };
  }

  /** The status a fault answers this request with, or undefined to serve it. */
  decide(): number | undefined {
    const [limit, failure] = [this.draws(), this.draws()];
    const scripted = this.script.shift();
    // Why a 200 in the script: it serves the request, so a fault can be placed after the n-th page.
    if (scripted !== undefined) return scripted === SERVED ? undefined : scripted;
    if (limit < (this.faults.rateLimitRate ?? 0)) return 429;
    if (failure < (this.faults.serverErrorRate ?? 0)) return this.faults.serverErrorStatus ?? 503;
    return undefined;
  }

  /** The answer of a fault status: OData error JSON, with Retry-After on 429. */
  answer(status: number): ResoAnswer {
    const retryAfter = String(this.faults.retryAfterSeconds ?? 1);
    return {
      status,
      body: {
        error: {
          code: String(status),
          message: status === 429 ? 'Too many requests, retry later' : `server error ${status} (an injected fault), try again`,
        },
      },
      headers: status === 429 || status === 503 ? { 'retry-after': retryAfter } : {},
    };
  }
}
