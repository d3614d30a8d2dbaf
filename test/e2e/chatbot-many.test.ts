import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/server.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { simEnv, startTestSim } from '../helpers/sim.js';
import { lines, runCli } from '../helpers/run-cli.js';

const redisUrl = inject('redisUrl');
let sim: RunningSimulator | undefined;
let prefix = '';

afterEach(async () => {
  await sim?.close();
  sim = undefined;
  await cleanPrefix(redisUrl, prefix);
});

function file(content: unknown, name = 'settings.json'): string {
  const path = join(mkdtempSync(join(tmpdir(), 'ls-many-')), name);
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

describe('chatbot knowledge --many (bulk knowledge-base edits through the queue)', () => {
  async function setup(label: string): Promise<Record<string, string>> {
    sim = await startTestSim({ chatbots: ['bot-a', 'bot-b'] });
    prefix = uniquePrefix(label);
    return { ...simEnv(sim), REDIS_URL: redisUrl, LISTING_SYNC_PREFIX: prefix, LISTING_SYNC_BACKOFF_MS: '5' };
  }

  /** Nothing reached the queue or the service: no run recorded, no write sent. */
  async function expectNothingEnqueued(env: Record<string, string>): Promise<void> {
    expect(sim?.state.writeCalls()).toBe(0);
    const runs = await runCli(['runs', 'list', '--json'], env);
    expect(JSON.parse(runs.stdout)).toEqual({ runs: [] });
  }

  it('enqueues one edit-knowledge job per chatbot under one run, and --work applies each edit once', async () => {
    const env = await setup('knowledge');
    const edits = [
      { serialNumber: 'bot-a', text: 'Open Monday to Friday', qaList: [{ key: 'Pets?', value: 'Cats only' }] },
      { serialNumber: 'bot-b', SiteMapUrl: 'https://b.example/sitemap.xml', EnableSyncSiteMap: true, SyncSiteMapDays: 7 },
    ];
    const run = await runCli(['chatbot', 'knowledge', '--many', file(edits, 'knowledge.json'), '--work', '--json'], env, 30_000);
    expect(run.stderr).not.toContain(sim!.credentials.secretKey);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { runId: string; chatbots: string[]; edited: number; failed: number };
    expect(result).toMatchObject({ chatbots: ['bot-a', 'bot-b'], edited: 2, failed: 0 });
    expect(sim!.state.knowledge('bot-a')).toEqual(edits[0]);
    expect(sim!.state.knowledge('bot-b')).toEqual(edits[1]);
    // Once each: one EditKnowledge call per chatbot, and nothing else written.
    const sent = sim!.state.calls().filter((call) => call.endpoint === 'editKnowledge');
    expect(sent.map((call) => call.body)).toEqual(expect.arrayContaining(edits));
    expect(sent).toHaveLength(2);
    expect(sim!.state.writeCalls()).toBe(2);
    const shown = await runCli(['runs', 'show', result.runId, '--json'], env);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: result.runId, chatbot: '2 chatbots', counts: { edited: 2, failedJobs: 0 } });
  });

  it('rejects the whole file, naming every bad entry by its position, before anything is enqueued or sent (exit 2)', async () => {
    const env = await setup('knowledge-bad');
    const path = file(
      [
        { serialNumber: 'bot-a', EnableSyncSiteMap: true },
        { text: 'no serial' },
        { serialNumber: 'bot-b', SyncSiteMapDays: 14, qaList: [{ question: 'q' }] },
        { serialNumber: 'bot-a', text: 'fine on its own' },
        { serialNumber: 'bot-a', text: 'fine on its own too' },
      ],
      'knowledge.json',
    );
    const run = await runCli(['chatbot', 'knowledge', '--many', path, '--work'], env);
    expect(run.code, run.stderr).toBe(2);
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(/entry 1: SyncSiteMapDays is required when EnableSyncSiteMap is true/);
    expect(run.stderr).toMatch(/entry 2: serialNumber is required/);
    expect(run.stderr).toMatch(/entry 3: SyncSiteMapDays must be one of 30, 7, 1 \(got 14\).*qaList/);
    expect(run.stderr).toMatch(/entry 5: chatbot bot-a appears twice/);
    expect(run.stdout).toBe('');
    await expectNothingEnqueued(env);

    const mixed = await runCli(['chatbot', 'knowledge', '--many', path, '--chatbot', 'bot-a'], env);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/--many takes the chatbots from its file: leave out --chatbot and --file/);
  });

  it('stops at chatbots the service does not know, naming them, before anything is enqueued (exit 2)', async () => {
    const env = await setup('knowledge-unknown');
    const path = file(
      [
        { serialNumber: 'bot-a', text: 'hello' },
        { serialNumber: 'no-such-bot', text: 'hello' },
      ],
      'knowledge.json',
    );
    const run = await runCli(['chatbot', 'knowledge', '--many', path, '--work', '--json'], env);
    expect(run.code, run.stderr).toBe(2);
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(/^listing-sync: chatbot no-such-bot is not known to the service .*nothing was enqueued or changed$/m);
    expect(sim!.state.knowledge('bot-a')).toBeUndefined();
    await expectNothingEnqueued(env);
  });
});
