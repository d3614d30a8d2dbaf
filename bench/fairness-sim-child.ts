/**
 * The bench's side of bench/fairness-sim.ts: forks the simulator process, waits until it listens,
 * and asks it for counts and its report over IPC.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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
  const child = fork(SIM, [String(latencyMs), chatbots.join(',')], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  /** The next message of `type` from the child. */
  const next = <T extends FromFairnessSim['type']>(type: T): Promise<Extract<FromFairnessSim, { type: T }>> =>
    new Promise((resolve, reject) => {
      const onMessage = (message: FromFairnessSim): void => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        resolve(message as Extract<FromFairnessSim, { type: T }>);
      };
      child.on('message', onMessage);
      void exited.then(() => reject(new Error(`the simulator process exited (${child.exitCode})`)));
    });
  const ask = <T extends 'count' | 'report'>(type: T): Promise<Extract<FromFairnessSim, { type: T }>> => {
    const answer = next(type);
    child.send({ type } satisfies ToFairnessSim);
    return answer;
  };
  const { sim } = await next('ready');
  return {
    info: sim,
    count: async () => (await ask('count')).writes,
    report: async () => (await ask('report')).report,
    async close() {
      if (child.exitCode === null) child.send({ type: 'close' } satisfies ToFairnessSim);
      await exited;
    },
  };
}
