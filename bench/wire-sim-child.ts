/** The bench's side of bench/wire-sim.ts: forks the simulator process, waits until it listens, and asks it over IPC. */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SimAddress } from './cli-child.js';
import type { FromWireSim, ToWireSim, WireSimReport } from './wire-sim.js';

const SIM = fileURLToPath(new URL('./wire-sim.js', import.meta.url));

export interface WireSim {
  info: SimAddress;
  /** Starts sampling the requests in flight (the report's avgInFlight). */
  sample(): void;
  listings(): Promise<number>;
  report(): Promise<WireSimReport>;
  /** The chatbot of each create answered, in order. */
  order(): Promise<string[]>;
  close(): Promise<void>;
}

/** A fresh simulator process holding `chatbots` (empty), answering after `latencyMs`. */
export async function startWireSim(latencyMs: number, chatbots: readonly string[]): Promise<WireSim> {
  // Why a larger heap: in a 1,000,000-listing migration the simulator holds every listing and every call (with its body).
  const child = fork(SIM, [String(latencyMs), chatbots.join(',')], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    execArgv: ['--max-old-space-size=8192'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  /** The next message of `type` (an answer comes as the next message of its question's type). */
  const next = <T extends FromWireSim['type']>(type: T): Promise<Extract<FromWireSim, { type: T }>> =>
    new Promise((resolve, reject) => {
      const onMessage = (message: FromWireSim): void => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        resolve(message as Extract<FromWireSim, { type: T }>);
      };
      child.on('message', onMessage);
      void exited.then(() => reject(new Error(`the simulator process exited (${child.exitCode})`)));
    });
  const ask = <T extends FromWireSim['type'] & ToWireSim['type']>(type: T): Promise<Extract<FromWireSim, { type: T }>> => {
    const answer = next(type);
    child.send({ type });
    return answer;
  };
  const { sim } = await next('ready');
  return {
    info: sim,
    sample: () => void child.send({ type: 'sample' }),
    listings: async () => (await ask('listings')).listings,
    report: async () => (await ask('report')).report,
    order: async () => (await ask('order')).order,
    close: async () => {
      if (child.exitCode === null && child.connected) child.send({ type: 'close' });
      await exited;
    },
  };
}
