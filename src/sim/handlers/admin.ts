/**
 * The cross-process admin view: GET /__sim/state and POST /__sim/faults (and
 * POST /__sim/reset-counters). No auth on purpose: the simulator is a test tool, bound to
 * 127.0.0.1 by default, and must never be exposed as a real service.
 */
import type { HandlerResult } from '../envelope.js';
import { simFaultsSchema } from '../faults.js';
import { validate } from '../validation.js';
import type { SimContext } from './context.js';

export function simStateView(ctx: SimContext): HandlerResult {
  const { state } = ctx;
  const listings = Object.fromEntries(state.chatbots().map((serial) => [serial, state.listings(serial)]));
  return ctx.envelopes.ok({
    listings,
    callCounts: state.callCounts(),
    writeCalls: state.writeCalls(),
    duplicateCreates: { MLSNumber: state.duplicateCreates(undefined, 'MLSNumber'), URL: state.duplicateCreates(undefined, 'URL') },
    maxInFlight: state.maxInFlight(),
    inFlight: state.inFlight(),
    faults: state.faults(),
    outageResets: state.outageResets(),
  });
}

export function setSimFaults(ctx: SimContext, body: unknown): HandlerResult {
  const parsed = validate(simFaultsSchema, body);
  if (!parsed.ok) return ctx.envelopes.fail(400, parsed.message);
  ctx.state.setFaults(parsed.value);
  return ctx.envelopes.ok(ctx.state.faults());
}

export function resetSimCounters(ctx: SimContext): HandlerResult {
  ctx.state.resetCounters();
  return ctx.envelopes.ok(true);
}
