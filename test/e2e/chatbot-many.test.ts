import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/server.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { simEnv, startTestSim } from '../helpers/sim.js';
import { runCli } from './run-cli.js';

const redisUrl = inject('redisUrl');
let sim: RunningSimulator | undefined;
let prefix = '';

afterEach(async () => {
  await sim?.close();
  sim = undefined;
  await cleanPrefix(redisUrl, prefix);
});

function file(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'ls-many-')), 'settings.json');
  writeFileSync(path, JSON.stringify(content));
  return path;
}

describe('chatbot edit --many (bulk settings through the queue)', () => {
  it('enqueues one edit per chatbot, runs them with --work, and the service holds every change', async () => {
    sim = await startTestSim({ chatbots: ['bot-a', 'bot-b'] });
    prefix = uniquePrefix('many');
    const env = { ...simEnv(sim), REDIS_URL: redisUrl, LISTING_SYNC_PREFIX: prefix, LISTING_SYNC_BACKOFF_MS: '5' };
    const path = file([
      { serialNumber: 'bot-a', WelcomeMessage: 'Hi from A', Temperature: 1 },
      { serialNumber: 'bot-b', ChatBubbleColor: 'rgb(0,128,255)' },
    ]);
    const run = await runCli(['chatbot', 'edit', '--many', path, '--work', '--json'], env, 30_000);
    expect(run.stderr).not.toContain(sim.credentials.secretKey);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { runId: string; chatbots: string[]; edited: number; failed: number };
    expect(result).toMatchObject({ chatbots: ['bot-a', 'bot-b'], edited: 2, failed: 0 });
    expect(sim.state.chatbotSettings('bot-a')).toMatchObject({ WelcomeMessage: 'Hi from A', Temperature: 1 });
    expect(sim.state.chatbotSettings('bot-b')).toMatchObject({ ChatBubbleColor: 'rgb(0,128,255)' });
    const shown = await runCli(['runs', 'show', result.runId, '--json'], env);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: result.runId, counts: { edited: 2, failedJobs: 0 } });
  });

  it('rejects the whole file, naming every bad entry, before anything is enqueued or sent', async () => {
    sim = await startTestSim({ chatbots: ['bot-a'] });
    prefix = uniquePrefix('many-bad');
    const env = { ...simEnv(sim), REDIS_URL: redisUrl, LISTING_SYNC_PREFIX: prefix };
    const path = file([
      { serialNumber: 'bot-a', Temperature: 'warm' },
      { Name: 'no serial' },
      { serialNumber: 'bot-a', UserMessageColor: 'blue' },
    ]);
    const run = await runCli(['chatbot', 'edit', '--many', path, '--work'], env);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/entry 1: Temperature/);
    expect(run.stderr).toMatch(/entry 2: serialNumber is required/);
    expect(run.stderr).toMatch(/entry 3: UserMessageColor/);
    expect(sim.state.writeCalls()).toBe(0);
    const runs = await runCli(['runs', 'list', '--json'], env);
    expect(JSON.parse(runs.stdout)).toEqual({ runs: [] });
  });
});
