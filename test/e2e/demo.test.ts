import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
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

/**
 * The MLS chatbot's Images are rehosted photos: every one under the demo's base URL (the service
 * simulator's own view of the listings), served as the JPEG bytes whose sha256 names them; the
 * dashboard's Photos page shows them as images from that address.
 */
async function expectRehostedPhotos(url: string, authorization: string, stdout: string, stderr: string): Promise<void> {
  const base = /rehosted at (http:\/\/127\.0\.0\.1:\d+\/photos)\//.exec(stdout)?.[1] ?? '';
  expect(base).not.toBe('');
  const simUrl = /demo: simulator at (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)?.[1] ?? '';
  const state = (await (await fetch(`${simUrl}/__sim/state`)).json()) as {
    Data: { listings: Record<string, Array<{ Images?: string[] }>> };
  };
  const listings = state.Data.listings['demo-mls'] ?? [];
  expect(listings).toHaveLength(24);
  const images = listings.flatMap((listing) => listing.Images ?? []);
  expect(images).toHaveLength(24 * 3);
  for (const image of images) expect(image).toMatch(new RegExp(`^${base}/[0-9a-f]{64}\\.jpg$`));
  const first = images[0] ?? '';
  const photo = await fetch(first);
  expect(photo.status).toBe(200);
  expect(photo.headers.get('content-type')).toBe('image/jpeg');
  const bytes = Buffer.from(await photo.arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  expect(`${base}/${createHash('sha256').update(bytes).digest('hex')}.jpg`).toBe(first);
  expect((await fetch(`${base}/../package.json`)).status).toBe(404);
  const page = await fetch(`${url}/chatbots/demo-mls/photos`, { headers: { authorization } });
  expect(page.status).toBe(200);
  expect(page.headers.get('content-security-policy')).toContain(`img-src 'self' ${new URL(base).origin}`);
  const html = await page.text();
  const shown = new Set([...html.matchAll(/<img class="photo" src="([^"]+)"/g)].map((match) => match[1]));
  for (const image of images) expect(shown.has(image), image).toBe(true);
}

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
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    let photoDir: string | undefined;
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
      await expectRehostedPhotos(url ?? '', `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`, stdout, stderr);
      photoDir = /photos are hosted in a file store at (\S+),/.exec(stderr)?.[1] ?? '';
      expect(existsSync(photoDir ?? '')).toBe(true);
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
    // The photo store was the demo's own temporary directory: gone with it.
    expect(photoDir).toBeDefined();
    expect(existsSync(photoDir ?? '')).toBe(false);
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
