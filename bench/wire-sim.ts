// The benches' simulator as a process of its own (its CPU is not the bench's, and the bench's bookkeeping never delays an answer).
// Forked by startWireSim with LATENCY_MS and the chatbots; answers the ToWireSim messages.
import { startSimulator, type RunningSimulator, type SimCallLog } from '../src/sim/server.js';
import type { SimAddress } from './cli-child.js';

export interface WritesPhase {
  writes: number;
  seconds: number;
  perSecond: number;
  /** Writes answered in each whole second (the last, partial one left out). */
  bySecond: number[];
  firstAt: number;
  lastAt: number;
}

export interface WireSimReport {
  phase: WritesPhase;
  callCounts: Record<string, number>;
  maxInFlight: number;
  listings: number;
  byChatbot: Record<string, number>;
  duplicateCreates: number;
  /** Inside the writes phase (0 when not sampled). */
  avgInFlight: number;
}

export type FromWireSim =
  | { type: 'ready'; sim: SimAddress }
  | { type: 'listings'; listings: number }
  | { type: 'report'; report: WireSimReport }
  | { type: 'order'; order: string[] };
export type ToWireSim = { type: 'sample' } | { type: 'listings' } | { type: 'report' } | { type: 'order' } | { type: 'close' };

const isWrite = (call: SimCallLog): boolean =>
  call.endpoint === 'createListing' || call.endpoint === 'updateListing' || call.endpoint === 'deleteListings';

/** Why two passes with running figures: a 1,000,000-listing run has a million calls (spread into Math.min they overflow the stack). */
function writesPhase(calls: readonly SimCallLog[]): WritesPhase {
  let writes = 0;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const call of calls) {
    if (!isWrite(call)) continue;
    writes += 1;
    first = Math.min(first, call.at);
    last = Math.max(last, call.at);
  }
  if (writes < 2) {
    const at = writes === 1 ? first : 0;
    return { writes, seconds: 0, perSecond: 0, bySecond: [], firstAt: at, lastAt: at };
  }
  const seconds = (last - first) / 1000;
  const bySecond = Array.from({ length: Math.floor(seconds) }, () => 0);
  for (const call of calls) {
    const second = Math.floor((call.at - first) / 1000);
    if (isWrite(call) && second < bySecond.length) bySecond[second] = (bySecond[second] ?? 0) + 1;
  }
  // Why writes − 1: n answers span n − 1 intervals; the same on both sides of every ratio.
  return { writes, seconds, perSecond: (writes - 1) / seconds, bySecond, firstAt: first, lastAt: last };
}

function inFlightSampler(sim: RunningSimulator): { start(): void; averageBetween(from: number, to: number): number } {
  const samples: number[] = [];
  let timer: NodeJS.Timeout | undefined;
  return {
    start: () => void (timer ??= setInterval(() => samples.push(Date.now(), sim.state.inFlight()), 5)),
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

async function main(): Promise<void> {
  const [latencyText, chatbotsText] = process.argv.slice(2);
  const chatbots = (chatbotsText ?? '').split(',').filter((name) => name !== '');
  const sim = await startSimulator({ port: 0, host: '127.0.0.1', chatbots, faults: { latencyMs: Number(latencyText) } });
  const sampler = inFlightSampler(sim);
  const send = (message: FromWireSim): void => void process.send?.(message);
  // Why a count, not listings().length: that copies every listing, and asked every 100 ms it slowed the run it timed.
  const listings = (): number => chatbots.reduce((sum, chatbot) => sum + sim.state.listingCount(chatbot), 0);
  const report = (): WireSimReport => {
    const phase = writesPhase(sim.state.calls());
    return {
      phase,
      callCounts: sim.state.callCounts(),
      maxInFlight: sim.state.maxInFlight(),
      listings: listings(),
      byChatbot: Object.fromEntries(chatbots.map((chatbot) => [chatbot, sim.state.listingCount(chatbot)])),
      duplicateCreates: chatbots.reduce((sum, chatbot) => sum + sim.state.duplicateCreates(chatbot).length, 0),
      avgInFlight: sampler.averageBetween(phase.firstAt, phase.lastAt),
    };
  };
  const order = (): string[] =>
    sim.state
      .calls()
      .filter((call) => call.endpoint === 'createListing' && call.status === 200)
      .map((call) => (call.body as { SerialNumber?: string }).SerialNumber ?? '');
  let closing: Promise<void> | undefined;
  const close = (): void => void (closing ??= sim.close().finally(() => process.exit(0)));
  process.on('message', (message: ToWireSim) => {
    if (message.type === 'close') close();
    else if (message.type === 'sample') sampler.start();
    else if (message.type === 'listings') send({ type: 'listings', listings: listings() });
    else if (message.type === 'order') send({ type: 'order', order: order() });
    else send({ type: 'report', report: report() });
  });
  // The bench going away without a 'close' (killed, crashed) must not leave a simulator behind.
  process.on('disconnect', close);
  send({ type: 'ready', sim: { baseUrl: sim.baseUrl, siteUrl: sim.siteUrl, credentials: sim.credentials } });
}

main().catch((thrown: unknown) => {
  process.stderr.write(`wire-sim failed: ${thrown instanceof Error ? thrown.message : String(thrown)}\n`);
  process.exit(1);
});
