/**
 * Seeded fault decisions. Each request draws the same number of values from one stream, so the
 * n-th request of a run gets the same decisions for the same seed whatever the rates are.
 * Jitter and drift content use streams of their own, so they never shift the decisions.
 */
import { z } from 'zod';
import { ENDPOINT_NAMES, type EndpointName } from './spec/endpoints.js';
import type { SimFaults } from './types.js';

const DEFAULT_SEED = 1;

/** mulberry32: a small, fast, well-spread 32-bit PRNG; returns values in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rate = z.number().min(0).max(1).optional();
const millis = z.number().int().min(0).max(60_000).optional();

/** SimFaults as sent to POST /__sim/faults. */
export const simFaultsSchema = z
  .object({
    seed: z.number().int().optional(),
    latencyMs: millis,
    jitterMs: millis,
    http503Rate: rate,
    envelopeFailureRate: rate,
    rateLimitRate: rate,
    commitThenDropRate: rate,
    driftRate: rate,
    endpoints: z.array(z.enum(ENDPOINT_NAMES as [EndpointName, ...EndpointName[]])).optional(),
    outage: z.boolean().optional(),
    echoRequest: z.boolean().optional(),
    echoAlso: z.string().optional(),
  })
  .strict();

/** What happens to one request. At most one of the answer-replacing faults is set. */
export interface FaultDecision {
  delayMs: number;
  answer: 'normal' | 'http503' | 'envelopeFailure' | 'rateLimit';
  /** Apply the write, then destroy the socket without answering. */
  drop: boolean;
  /** Insert or remove a listing before answering a list request. */
  drift: boolean;
  /** Refuse the request quoting it whole (SimFaults `echoRequest`), and `echoAlso` after it. */
  echo: boolean;
  echoAlso?: string;
}

export class FaultPlan {
  private faults: SimFaults;
  private decisions: () => number;
  private jitter: () => number;
  /** Stream for drift content (which listing to remove, insert or remove). */
  readonly driftRandom: () => number;

  constructor(faults: SimFaults = {}) {
    this.faults = { ...faults };
    const seed = faults.seed ?? DEFAULT_SEED;
    this.decisions = seededRandom(seed);
    this.jitter = seededRandom(seed ^ 0x5bd1e995);
    this.driftRandom = seededRandom(seed ^ 0x1b873593);
  }

  current(): SimFaults {
    return { ...this.faults };
  }

  decide(endpoint: EndpointName): FaultDecision {
    const f = this.faults;
    const draws = [this.decisions(), this.decisions(), this.decisions(), this.decisions(), this.decisions()] as const;
    const jitterMs = f.jitterMs ? Math.floor(this.jitter() * f.jitterMs) : 0;
    const decision: FaultDecision = { delayMs: (f.latencyMs ?? 0) + jitterMs, answer: 'normal', drop: false, drift: false, echo: false };
    if (f.endpoints && !f.endpoints.includes(endpoint)) return decision;
    decision.echo = f.echoRequest === true;
    if (f.echoAlso !== undefined) decision.echoAlso = f.echoAlso;
    if (draws[0] < (f.http503Rate ?? 0)) decision.answer = 'http503';
    else if (draws[1] < (f.envelopeFailureRate ?? 0)) decision.answer = 'envelopeFailure';
    else if (draws[2] < (f.rateLimitRate ?? 0)) decision.answer = 'rateLimit';
    decision.drop = draws[3] < (f.commitThenDropRate ?? 0);
    decision.drift = draws[4] < (f.driftRate ?? 0);
    return decision;
  }
}
