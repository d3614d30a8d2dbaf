/**
 * The bench's side of bench/wire-sim.ts: forks the simulator process for one measurement, waits
 * until it listens, and reads its figures over IPC.
 */
import { fileURLToPath } from 'node:url';
import { forkIpcChild } from './ipc-child.js';
import type { FromWireSim, ToWireSim, WireSimInfo, WireSimReport } from './wire-sim.js';

const SIM = fileURLToPath(new URL('./wire-sim.js', import.meta.url));

export interface WireSim {
  info: WireSimInfo;
  /** Starts sampling the requests in flight (the report's avgInFlight). */
  sample(): void;
  /** The chatbot's listings so far. */
  listings(): Promise<number>;
  report(): Promise<WireSimReport>;
  close(): Promise<void>;
}

/** A fresh simulator process holding `chatbot` (empty), answering after `latencyMs`. */
export async function startWireSim(latencyMs: number, chatbot: string): Promise<WireSim> {
  // Why a larger heap: in a 1,000,000-listing migration the simulator holds every listing and
  // every call (with its body), and copies the listings once more to count them for the report.
  const child = forkIpcChild<FromWireSim, ToWireSim>(SIM, [String(latencyMs), chatbot], ['--max-old-space-size=8192']);
  const { sim } = await child.next('ready');
  return {
    info: sim,
    sample: () => child.send({ type: 'sample' }),
    listings: async () => (await child.ask({ type: 'listings' })).listings,
    report: async () => (await child.ask({ type: 'report' })).report,
    close: () => child.close({ type: 'close' }),
  };
}
