import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEFAULT_RESO_CREDENTIALS } from '../../src/sim/reso/server.js';
import { hasRedisServer, startRedisProcess, type RedisProcess } from '../helpers/redis-process.js';
import { CLI_ENTRY, runCli } from '../helpers/run-cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Why a Redis of its own (when redis-server is on PATH): the demo works under its fixed prefix
 * `listing-sync-demo`, which it cleans first; on the shared Redis the test would wipe a person's
 * demo and leave its own keys behind.
 */
let ownRedis: RedisProcess | undefined;
let redisUrl = inject('redisUrl');
beforeAll(async () => {
  if (!hasRedisServer()) return;
  ownRedis = await startRedisProcess({ args: ['--appendonly', 'no'] });
  redisUrl = ownRedis.url;
});
afterAll(async () => {
  await ownRedis?.close();
});

describe('npm run demo', () => {
  it('the README command syncs the sample feed through injected faults, converges, then replicates an MLS', async () => {
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn('npm', ['run', '--silent', 'demo', '--', '--exit-after-sync'], {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', REDIS_URL: redisUrl },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.once('error', reject);
      child.once('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/feed {4}51 rows: 49 valid, 2 rejected/);
    expect(run.stdout).toMatch(/line 39: Bedrooms: expected a number, got 'three'/);
    expect(run.stdout).toMatch(/plan {4}create 12, update 6, delete 3, unchanged 31/);
    expect(run.stdout).toMatch(/result {2}created 12, updated 6, deleted 3, failed 0, retried \d+/);
    expect(run.stderr).toMatch(/injecting faults/);
    // The replication act: everything once (its $metadata read, then one page), then only what the
    // MLS changed; the withdrawn record deleted.
    expect(run.stdout).toMatch(/replication {2}first run: 25 records pulled \(everything, 2 requests\), 25 listings created on demo-mls/);
    expect(run.stdout).toMatch(
      /replication {2}next run: 4 records pulled, only the changed ones \(21 unchanged not fetched\), 3 updated, 1 deleted because Withdrawn/,
    );
    const watermark = /replication {2}watermark (\d{4}-\d\d-\d\dT[\d:.]+Z): the next run asks for ModificationTimestamp ge/.exec(
      run.stdout,
    )?.[1];
    expect(watermark).toBeDefined();
    expect(run.stdout).toContain(`watermark: ${watermark ?? ''} (set `);
    expect(run.stdout).toMatch(/\$ listing-sync sources show --chatbot demo-mls --feed http:\/\/127\.0\.0\.1:\d+\/odata\/Property/);
    // The incremental pull: one page of Property and one request to Media for photos changed alone.
    expect(run.stdout).toMatch(/last run: \S+ \S+ done: 4 records, 2 requests/);
    // With the first run's two ($metadata, one page): the metadata read counts against the budget too.
    expect(run.stdout).toMatch(/totals: 2 runs, 29 records, 4 requests/);
    expect(run.stdout).toMatch(/budget: \d\/2\/s, 4\/7200\/h, 4\/40000\/d/);
    // The feed credentials are the simulator's test client: never printed, nor a token.
    for (const text of [run.stdout, run.stderr]) {
      expect(text).not.toContain(DEFAULT_RESO_CREDENTIALS.clientSecret);
      expect(text).not.toMatch(/access_token|Bearer\s+\S/);
    }
    // Quiet: stderr holds the demo's narration only, no warning or stack trace (npm's own notes about the machine's npmrc aside).
    const stray = run.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('demo: ') && !line.startsWith('npm '));
    expect(stray).toEqual([]);
  }, 90_000);

  it('serves the dashboard with printed credentials until Ctrl-C, and refuses requests without them', async () => {
    const child = spawn(process.execPath, [CLI_ENTRY, 'demo', '--port', '0'], {
      env: { PATH: process.env.PATH ?? '', REDIS_URL: redisUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    try {
      const line = await new Promise<RegExpMatchArray>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no dashboard line in ${stdout}`)), 60_000);
        child.stdout.on('data', () => {
          const match = /dashboard: (http:\/\/127\.0\.0\.1:\d+)\/ {2}\(user (\S+), password (\S+)\)/.exec(stdout);
          if (match) {
            clearTimeout(timer);
            resolve(match);
          }
        });
      });
      const [, url, user, password] = line;
      const anonymous = await fetch(`${url}/`);
      expect(anonymous.status).toBe(401);
      const page = await fetch(`${url}/`, { headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` } });
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('demo-bot');
      expect(html).not.toContain('sim-secret-key');
      expect(html).not.toContain(DEFAULT_RESO_CREDENTIALS.clientSecret);
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
    // The demo's runs are visible to the CLI afterwards (same Redis, the demo's prefix): the file sync and the two pulls.
    const env = { REDIS_URL: redisUrl, LISTING_SYNC_PREFIX: 'listing-sync-demo' };
    const runs = await runCli(['runs', 'list', '--json'], env);
    const listed = (JSON.parse(runs.stdout) as { runs: Array<{ chatbot: string; trigger: string; status: string }> }).runs;
    expect(listed.map(({ chatbot, trigger, status }) => `${chatbot} ${trigger} ${status}`).sort()).toEqual([
      'demo-bot demo done',
      'demo-mls demo done',
      'demo-mls demo done',
    ]);
    const sources = await runCli(['sources', 'list'], env);
    expect(sources.stdout).toMatch(
      /^demo-mls {2}http:\/\/127\.0\.0\.1:\d+\/odata\/Property {2}watermark \S+ {2}last run \S+ \S+ done {2}records 29/m,
    );
  }, 90_000);
});
