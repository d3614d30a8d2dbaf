/**
 * A chatbot the service does not know (the simulator answers RealEstateList and the rest with
 * envelope Code 404 "chatbot … not found"): `sync` and `chatbot edit --many` stop before anything is
 * enqueued, with one line that names the chatbot and what to check, and exit 2 — instead of a run
 * whose every job fails on its own, "not found" after "not found".
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/server.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { simEnv, startTestSim } from '../helpers/sim.js';
import { lines, runCli } from '../helpers/run-cli.js';

const redisUrl = inject('redisUrl');
const FEED = resolve(import.meta.dirname, '../../fixtures/sync/dry-run.csv');
const NOT_KNOWN =
  /^listing-sync: chatbot no-such-bot is not known to the service \(RealEstateList answered Code 404\): check the serial number, and that API_BASE_URL and the keys are those of the account that holds it; nothing was enqueued or changed$/;

let sim: RunningSimulator | undefined;
let prefix = '';

afterEach(async () => {
  await sim?.close();
  sim = undefined;
  if (prefix !== '') await cleanPrefix(redisUrl, prefix);
  prefix = '';
});

async function setup(): Promise<Record<string, string>> {
  sim = await startTestSim({ chatbots: ['bot-real', 'bot-other'] });
  prefix = uniquePrefix('not-found');
  return { ...simEnv(sim), REDIS_URL: redisUrl, LISTING_SYNC_PREFIX: prefix, LOG_LEVEL: 'info' };
}

/** Nothing reached the queue: no run recorded, no job in it. */
async function expectNothingEnqueued(env: Record<string, string>): Promise<void> {
  const runs = await runCli(['runs', 'list', '--json'], env);
  expect(JSON.parse(runs.stdout)).toEqual({ runs: [] });
  const failed = await runCli(['jobs', 'failed', '--json'], env);
  expect(JSON.parse(failed.stdout)).toEqual({ failed: [] });
}

describe('a chatbot the service does not know', () => {
  for (const mode of [['--work'], ['--wait'], [], ['--dry-run']]) {
    it(`sync ${mode.join(' ') || '(enqueue only)'}: one line naming it, exit 2, nothing enqueued or written`, async () => {
      const env = await setup();
      const run = await runCli(['sync', '--chatbot', 'no-such-bot', '--feed', FEED, ...mode], env);
      expect(run.code, run.stderr).toBe(2);
      const said = lines(run.stderr);
      expect(said, run.stderr).toHaveLength(1);
      expect(said[0]).toMatch(NOT_KNOWN);
      expect(run.stdout).toBe('');
      expect(sim?.state.writeCalls()).toBe(0);
      // One page read (its retries would be the same answer): not one call per listing.
      expect(sim?.state.callCounts().listListings).toBe(1);
      await expectNothingEnqueued(env);
    });
  }

  it('chatbot edit --many --work: names every unknown chatbot in one line, exit 2, no edit enqueued or sent', async () => {
    const env = await setup();
    const path = join(mkdtempSync(join(tmpdir(), 'ls-not-found-')), 'settings.json');
    writeFileSync(
      path,
      JSON.stringify([
        { serialNumber: 'bot-real', WelcomeMessage: 'Hi' },
        { serialNumber: 'no-such-bot', WelcomeMessage: 'Hi' },
        { serialNumber: 'bot-other', Temperature: 1 },
        { serialNumber: 'gone-bot', Temperature: 1 },
      ]),
    );
    const run = await runCli(['chatbot', 'edit', '--many', path, '--work', '--json'], env);
    expect(run.code, run.stderr).toBe(2);
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(
      /^listing-sync: chatbots no-such-bot, gone-bot are not known to the service \(RealEstateList answered Code 404\): check the serial number/,
    );
    expect(run.stdout).toBe('');
    expect(sim?.state.writeCalls()).toBe(0);
    expect(sim?.state.chatbotSettings('bot-real')).not.toMatchObject({ WelcomeMessage: 'Hi' });
    await expectNothingEnqueued(env);
  });
});
