/**
 * bench:sync's scaling figures: `processes` × `listing-sync worker` (each --concurrency G, all
 * under --global-concurrency G) against a fresh simulator; the CLI `sync` only enqueues. Timed
 * by the simulator from the first create answered to the last.
 */
import type { Redis } from 'ioredis';
import { runCli, spawnCli, type Spawned } from './cli-child.js';
import { cliEnv, prepareWireScenario, removeWireScenario, WIRE_CHATBOT, wireSimulator, writesPhase } from './sync-wire.js';
import { cleanPrefix } from './sync-redis-stats.js';

export interface ProcessesSettings {
  redisUrl: string;
  processes: number;
  global: number;
  creates: number;
  latencyMs: number;
  newPrefix(what: string): string;
  admin: Redis;
}

export interface ProcessesResult {
  processes: number;
  global: number;
  writesPerSecond: number;
  /** Ideal: G ÷ latency. */
  ideal: number;
  maxInFlight: number;
  listings: number;
  duplicateCreates: number;
}

async function started(worker: Spawned, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!worker.output().includes('workers started')) {
    if (worker.child.exitCode !== null) throw new Error(`worker exited ${worker.child.exitCode}:\n${worker.output()}`);
    if (Date.now() > end) throw new Error(`worker did not start:\n${worker.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function runProcesses(settings: ProcessesSettings): Promise<ProcessesResult> {
  const { processes, global, creates, latencyMs } = settings;
  const scenario = await prepareWireScenario(creates, global, latencyMs);
  const sim = await wireSimulator(latencyMs);
  const prefix = settings.newPrefix('procs');
  const env = { ...cliEnv(sim, settings.redisUrl, prefix), LOG_LEVEL: 'info' };
  const workers: Spawned[] = [];
  try {
    for (let i = 0; i < processes; i += 1)
      workers.push(spawnCli(['worker', '--concurrency', String(global), '--global-concurrency', String(global)], env));
    await Promise.all(workers.map((worker) => started(worker)));
    const enqueue = await runCli(['sync', '--chatbot', WIRE_CHATBOT, '--feed', scenario.feedPath, '--json'], { ...env, LOG_LEVEL: 'warn' });
    if (enqueue.code !== 0) throw new Error(`sync exited ${enqueue.code}:\n${enqueue.stderr}`);
    const end = Date.now() + 600_000;
    while (sim.state.listings(WIRE_CHATBOT).length < creates) {
      if (Date.now() > end) throw new Error(`only ${sim.state.listings(WIRE_CHATBOT).length} of ${creates} created in 10 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const phase = writesPhase(sim);
    return {
      processes,
      global,
      writesPerSecond: phase.perSecond,
      ideal: global / (latencyMs / 1000),
      maxInFlight: sim.state.maxInFlight(),
      listings: sim.state.listings(WIRE_CHATBOT).length,
      duplicateCreates: sim.state.duplicateCreates(WIRE_CHATBOT).length,
    };
  } finally {
    for (const worker of workers) worker.child.kill('SIGTERM');
    await Promise.all(
      workers.map((worker) =>
        worker.child.exitCode !== null ? Promise.resolve() : new Promise((resolve) => worker.child.once('exit', resolve)),
      ),
    );
    await sim.close();
    await removeWireScenario(scenario);
    await cleanPrefix(settings.admin, prefix);
  }
}
