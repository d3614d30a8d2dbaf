/**
 * Runs the README's three recipes ("The three uses") line by line, as a user would, against the
 * simulator and a real Redis. The lines are read from README.md, so an edited recipe is what
 * gets run; only placeholders (feed paths, RUN_ID, the MLS number, the port) are substituted.
 * The CLI's name, however the README spells it (`npx listing-sync`, `npm run cli --`), is the
 * built CLI here.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/server.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { simEnv, startTestSim } from '../helpers/sim.js';
import { docInvocations, type DocInvocation } from '../helpers/doc-commands.js';
import { CLI_ENTRY, runCli } from '../helpers/run-cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const redisUrl = inject('redisUrl');

/** The invocations of the README's "The three uses", as docs-commands.test.ts reads them (any spelling of the CLI). */
function recipes(): DocInvocation[] {
  const start = readme.indexOf('## The three uses');
  const end = readme.indexOf('\n## ', start + 1);
  return docInvocations(readme.slice(start, end), 'README.md');
}

/** Long-running commands: started, awaited until ready, then stopped with SIGTERM (exit 0 expected). */
async function runUntilReady(args: string[], env: Record<string, string>, ready: RegExp): Promise<number | null> {
  const child = spawn(process.execPath, [CLI_ENTRY, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer): void => void (output += chunk.toString());
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not ready: ${args.join(' ')}\n${output}`)), 20_000);
      const check = (): void => {
        if (ready.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout.on('data', check);
      child.stderr.on('data', check);
      void exited.then(() => reject(new Error(`exited before ready: ${args.join(' ')}\n${output}`)));
    });
    child.kill('SIGTERM');
    return await exited;
  } finally {
    child.kill('SIGKILL');
  }
}

describe('README recipes, run as written', () => {
  let sim: RunningSimulator;
  let env: Record<string, string>;
  const prefix = uniquePrefix('readme');
  const tmp = mkdtempSync(join(tmpdir(), 'ls-readme-'));
  const substitutions: Array<[RegExp, string]> = [
    [/^\/feeds\/acme\.csv$/, join(root, 'fixtures/feeds/redfin.csv')],
    [/^inventory\.json$/, join(root, 'fixtures/feeds/reso-odata.json')],
    [/^\/tmp\/plan\.csv$/, join(tmp, 'plan.csv')],
    [/^plan\.json$/, join(tmp, 'plan.json')],
    [/^11646057$/, 'R100'],
  ];
  let runId = '';

  beforeAll(async () => {
    sim = await startTestSim({ chatbots: ['acme-bot'] });
    env = {
      ...simEnv(sim),
      REDIS_URL: redisUrl,
      LISTING_SYNC_PREFIX: prefix,
      LISTING_SYNC_BACKOFF_MS: '5',
      DASHBOARD_TOKEN: 'readme-test-token',
    };
  });
  afterAll(async () => {
    await sim.close();
    await cleanPrefix(redisUrl, prefix);
  });

  const lines = recipes();
  it('the README has recipes to run', () => {
    expect(lines.length).toBeGreaterThanOrEqual(10);
  });

  it.each(lines.map((recipe) => [recipe.line, recipe] as const))(
    '%s',
    async (line, recipe) => {
      const args = recipe.args
        .map((word) => substitutions.reduce((w, [pattern, value]) => w.replace(pattern, value), word))
        .map((word) => (word === 'RUN_ID' ? runId : word));
      if (args[0] === 'worker') {
        expect(await runUntilReady(args, env, /workers started/)).toBe(0);
        return;
      }
      if (args[0] === 'dashboard') {
        const portAt = args.indexOf('--port');
        if (portAt >= 0) args[portAt + 1] = '0';
        expect(await runUntilReady(args, env, /dashboard listening on/)).toBe(0);
        return;
      }
      const run = await runCli(args, env, 30_000);
      expect(run.code, `${line}\n${run.stderr}`).toBe(0);
      if (args[0] === 'sync' && args.includes('--work')) {
        expect(run.stdout).toMatch(/result {2}created \d+, updated \d+, deleted \d+, failed 0/);
        runId = /run (run-\S+)/.exec(run.stdout)?.[1] ?? '';
        expect(runId).not.toBe('');
      }
      if (args[0] === 'jobs' && args[1] === 'find') expect(run.stdout).toContain('R100');
    },
    60_000,
  );

  it('left the chatbot holding the migrated inventory', () => {
    expect(
      sim.state
        .listings('acme-bot')
        .map((l) => l.MLSNumber)
        .sort(),
    ).toEqual(['R100', 'R101', 'R102']);
    expect(sim.state.duplicates('acme-bot', 'MLSNumber')).toEqual([]);
  });
});
