/**
 * The set-up of an e2e test that runs CLI processes against the simulator on one generated feed:
 * a simulator holding the chatbot, a native CSV feed of `rows` listings in a directory of its
 * own, a Redis prefix of its own. Registered per test file: after each test the processes it
 * tracked are killed, the simulator closed, the directory removed, and the prefix cleaned when
 * the test passed (a failed test leaves its keys to look at).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, inject } from 'vitest';
import { writeFeedCsv } from '../../bench/generate-feed.js';
import type { RunningSimulator, SimOptions } from '../../src/sim/server.js';
import type { CliProcess } from './cli-process.js';
import { cleanPrefix, uniquePrefix } from './redis.js';
import { cliEnv, startTestSim } from './sim.js';

export interface FeedScenario {
  sim: RunningSimulator;
  redisUrl: string;
  prefix: string;
  /** The feed file's path. */
  feed: string;
}

export interface FeedScenarioOptions {
  chatbot: string;
  rows: number;
  seed: number;
  latencyMs: number;
}

export interface FeedScenarios {
  start(options: FeedScenarioOptions): Promise<FeedScenario>;
  /** Kills `process` after the test if it still runs; returns it. */
  track(process: CliProcess): CliProcess;
}

/**
 * Ends what an e2e test set up: closes its simulator, removes its directory, and cleans its Redis
 * prefix when the test passed (a failed test leaves its keys to look at). Empty values are skipped.
 */
export async function releaseScene(scene: {
  sim: RunningSimulator | undefined;
  dir: string;
  redisUrl: string;
  prefix: string;
  passed: boolean;
}): Promise<void> {
  await scene.sim?.close();
  if (scene.dir !== '') rmSync(scene.dir, { recursive: true, force: true });
  if (scene.prefix !== '' && scene.passed) await cleanPrefix(scene.redisUrl, scene.prefix);
}

export function feedScenarioPerTest(label: string): FeedScenarios {
  const processes: CliProcess[] = [];
  const scenes = simScenePerTest(label, async () => void (await Promise.all(processes.splice(0).map((process) => process.kill()))));
  return {
    async start(options) {
      const scene = await scenes.start({ chatbots: [options.chatbot], faults: { latencyMs: options.latencyMs } });
      const feed = join(scene.dir, 'feed.csv');
      await writeFeedCsv(feed, { listings: options.rows, seed: options.seed, profile: 'native' });
      return { sim: scene.sim, redisUrl: scene.redisUrl, prefix: scene.prefix, feed };
    },
    track(process) {
      processes.push(process);
      return process;
    },
  };
}

/** What an e2e test runs CLI processes in: a simulator, the env pointing at it, a directory and a Redis prefix of its own. */
export interface SimScene {
  sim: RunningSimulator;
  env: Record<string, string>;
  dir: string;
  redisUrl: string;
  prefix: string;
}

/**
 * Per test: `start` opens a scene (simulator with `options`, a directory, a prefix); after the
 * test `beforeRelease` runs (e.g. kills the test's processes), then the scene is released as
 * releaseScene says.
 */
export function simScenePerTest(label: string, beforeRelease?: () => Promise<void>): { start(options: SimOptions): Promise<SimScene> } {
  const redisUrl = inject('redisUrl');
  let sim: RunningSimulator | undefined;
  let prefix = '';
  let dir = '';
  afterEach(async (ctx) => {
    await beforeRelease?.();
    await releaseScene({ sim, dir, redisUrl, prefix, passed: (ctx.task.result?.errors ?? []).length === 0 });
    sim = undefined;
    dir = '';
    prefix = '';
  });
  return {
    async start(options) {
      prefix = uniquePrefix(label);
      dir = mkdtempSync(join(tmpdir(), `ls-${label}-`));
      sim = await startTestSim(options);
      return { sim, env: cliEnv(sim, redisUrl, prefix), dir, redisUrl, prefix };
    },
  };
}
