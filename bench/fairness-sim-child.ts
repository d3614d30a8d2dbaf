/**
 * The bench's side of bench/fairness-sim.ts: forks the simulator process, waits until it listens,
 * and asks it for counts and its report over IPC.
 */
import { fileURLToPath } from 'node:url';
import { forkIpcChild } from './ipc-child.js';
import type { FairnessSimInfo, FairnessSimReport, FromFairnessSim, ToFairnessSim } from './fairness-sim.js';

const SIM = fileURLToPath(new URL('./fairness-sim.js', import.meta.url));

export interface FairnessSim {
  info: FairnessSimInfo;
  /** Writes answered so far. */
  count(): Promise<number>;
  report(): Promise<FairnessSimReport>;
  close(): Promise<void>;
}

export async function startFairnessSim(latencyMs: number, chatbots: readonly string[]): Promise<FairnessSim> {
  const child = forkIpcChild<FromFairnessSim, ToFairnessSim>(SIM, [String(latencyMs), chatbots.join(',')]);
  const { sim } = await child.next('ready');
  return {
    info: sim,
    count: async () => (await child.ask({ type: 'count' })).writes,
    report: async () => (await child.ask({ type: 'report' })).report,
    close: () => child.close({ type: 'close' }),
  };
}
