/**
 * bench:sync's simulator, as a process of its own (issue 30: its CPU is not the bench's, and the
 * bench's bookkeeping never delays an answer). Forked with an IPC channel by wire-sim-child.ts;
 * argv: LATENCY_MS and the chatbot. Sends { type: 'ready', sim } once listening, then answers:
 * - { type: 'sample' }: starts sampling the requests in flight every 5 ms (for "slots busy");
 * - { type: 'listings' }: the chatbot's listings so far (for polling);
 * - { type: 'report' }: everything the bench reads at the end (WireSimReport);
 * - { type: 'close' }: closes the simulator and exits.
 */
import { startSimulator, type RunningSimulator, type SimCallLog } from '../src/sim/server.js';

export interface WireSimInfo {
  baseUrl: string;
  siteUrl: string;
  credentials: { secretKey: string; sessionKey: string; projectAuthToken: string };
}

/** The writes phase as the simulator saw it. */
export interface WritesPhase {
  writes: number;
  seconds: number;
  perSecond: number;
  /**
   * Writes answered in each whole second of the phase, from the first write (the last, partial
   * second left out): whether a gap to the bare loop is a slow start or the steady pace.
   */
  bySecond: number[];
  /** Date.now() of the first and the last write answered (0 when none). */
  firstAt: number;
  lastAt: number;
}

export interface WireSimReport {
  phase: WritesPhase;
  /** Calls per endpoint (every status). */
  callCounts: Record<string, number>;
  maxInFlight: number;
  listings: number;
  duplicateCreates: number;
  /** Average requests in flight sampled inside the writes phase (0 when not sampled). */
  avgInFlight: number;
}

export type FromWireSim =
  { type: 'ready'; sim: WireSimInfo } | { type: 'listings'; listings: number } | { type: 'report'; report: WireSimReport };
export type ToWireSim = { type: 'sample' } | { type: 'listings' } | { type: 'report' } | { type: 'close' };

const isWrite = (call: SimCallLog): boolean =>
  call.endpoint === 'createListing' || call.endpoint === 'updateListing' || call.endpoint === 'deleteListings';

/**
 * Creates per second between the first and the last write the simulator answered. Two passes
 * over the call log with running figures, never an array of times: a 1,000,000-listing run has a
 * million calls (spreading them into Math.min overflows the stack).
 */
export function writesPhase(calls: readonly SimCallLog[]): WritesPhase {
  let writes = 0;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const call of calls) {
    if (!isWrite(call)) continue;
    writes += 1;
    if (call.at < first) first = call.at;
    if (call.at > last) last = call.at;
  }
  if (writes < 2) {
    const at = writes === 1 ? first : 0;
    return { writes, seconds: 0, perSecond: 0, bySecond: [], firstAt: at, lastAt: at };
  }
  const seconds = (last - first) / 1000;
  const bySecond = Array.from({ length: Math.floor(seconds) }, () => 0);
  for (const call of calls) {
    if (!isWrite(call)) continue;
    const second = Math.floor((call.at - first) / 1000);
    if (second < bySecond.length) bySecond[second] = (bySecond[second] ?? 0) + 1;
  }
  // Why writes − 1: n answers span n − 1 intervals; the same on both sides of the ratio.
  return { writes, seconds, perSecond: (writes - 1) / seconds, bySecond, firstAt: first, lastAt: last };
}

/** Requests in flight every 5 ms, with the time, from when the bench asks until the report. */
function inFlightSampler(sim: RunningSimulator): { start(): void; averageBetween(from: number, to: number): number } {
  const samples: number[] = [];
  let timer: NodeJS.Timeout | undefined;
  return {
    start() {
      timer ??= setInterval(() => samples.push(Date.now(), sim.state.inFlight()), 5);
    },
    averageBetween(from, to) {
      clearInterval(timer);
      let sum = 0;
      let count = 0;
      // Why strictly inside: the same samples as "after the first write answered, before the last".
      for (let i = 0; i < samples.length; i += 2) {
        const at = samples[i] as number;
        if (at <= from || at >= to) continue;
        sum += samples[i + 1] as number;
        count += 1;
      }
      return count === 0 ? 0 : sum / count;
    },
  };
}

function report(sim: RunningSimulator, chatbot: string, sampler: ReturnType<typeof inFlightSampler>): WireSimReport {
  const phase = writesPhase(sim.state.calls());
  return {
    phase,
    callCounts: sim.state.callCounts(),
    maxInFlight: sim.state.maxInFlight(),
    listings: sim.state.listingCount(chatbot),
    duplicateCreates: sim.state.duplicateCreates(chatbot).length,
    avgInFlight: sampler.averageBetween(phase.firstAt, phase.lastAt),
  };
}

async function main(): Promise<void> {
  const [latencyText, chatbot] = process.argv.slice(2);
  if (chatbot === undefined) throw new Error('usage: wire-sim LATENCY_MS CHATBOT');
  const sim = await startSimulator({ port: 0, host: '127.0.0.1', chatbots: [chatbot], faults: { latencyMs: Number(latencyText) } });
  const sampler = inFlightSampler(sim);
  const send = (message: FromWireSim): void => void process.send?.(message);
  let closing = false;
  const close = (): void => {
    if (closing) return;
    closing = true;
    void sim.close().finally(() => process.exit(0));
  };
  process.on('message', (message: ToWireSim) => {
    if (message.type === 'close') close();
    else if (message.type === 'sample') sampler.start();
    // Why a count, not listings().length: that copies every listing, and asked every 100 ms
    // (sync-processes.ts) it held the simulator's replies back by tens of ms, slowing the very
    // run it timed (mean request 32 ms for a 20 ms latency).
    else if (message.type === 'listings') send({ type: 'listings', listings: sim.state.listingCount(chatbot) });
    else send({ type: 'report', report: report(sim, chatbot, sampler) });
  });
  // The bench going away without a 'close' (killed, crashed) must not leave a simulator behind.
  process.on('disconnect', close);
  send({ type: 'ready', sim: { baseUrl: sim.baseUrl, siteUrl: sim.siteUrl, credentials: sim.credentials } });
}

main().catch((thrown: unknown) => {
  process.stderr.write(`wire-sim failed: ${thrown instanceof Error ? thrown.message : String(thrown)}\n`);
  process.exit(1);
});
