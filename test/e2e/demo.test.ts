import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { CLI_ENTRY, runCli } from './run-cli.js';

const redisUrl = inject('redisUrl');
const root = fileURLToPath(new URL('../../', import.meta.url));

describe('npm run demo', () => {
  it('the README command syncs the sample feed through injected faults and converges', async () => {
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
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
    // The demo's run is visible to the CLI afterwards (same Redis, the demo's prefix).
    const runs = await runCli(['runs', 'list', '--json'], { REDIS_URL: redisUrl, LISTING_SYNC_PREFIX: 'listing-sync-demo' });
    expect(JSON.parse(runs.stdout)).toMatchObject({ runs: [{ chatbot: 'demo-bot', trigger: 'demo', status: 'done' }] });
  }, 90_000);
});
