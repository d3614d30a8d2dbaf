/**
 * `listing-sync sim --reso` as a process: it prints the RESO Property and token URLs, issues a
 * token for the env credentials, serves a Property page, never prints the secret, and exits 0
 * on SIGTERM; and the `export` lines it prints, eval'd by a shell, are all a second process needs
 * to pull from it with `sync --replicate`.
 */
import { spawn } from 'node:child_process';
import { afterEach, expect, inject, it } from 'vitest';
import { request } from 'undici';
import { startCli, type CliProcess } from '../helpers/cli-process.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { CLI_ENTRY, jsonOf, type CliRun } from '../helpers/run-cli.js';

let cli: CliProcess | undefined;
afterEach(async () => {
  await cli?.kill();
  cli = undefined;
});

const TOKEN_LINE = /RESO simulator token URL (http:\/\/127\.0\.0\.1:\d+\/\S+) \(FEED_OAUTH_CLIENT_ID\/SECRET, 7 records\)/;
const PROPERTY_LINE = /RESO simulator Property URL (http:\/\/127\.0\.0\.1:\d+\/odata\/Property)\n/;

it('serves a token and a Property page with the env credentials, prints no secret, and exits 0 on SIGTERM', async () => {
  const env = { FEED_OAUTH_CLIENT_ID: 'e2e-client', FEED_OAUTH_CLIENT_SECRET: 'e2e-reso-secret-value' };
  cli = startCli(['sim', '--reso', '--reso-records', '7', '--reso-max-top', '5', '--reso-no-next-link', '--reso-budget', '50/s'], env);
  await cli.waitFor(TOKEN_LINE);
  const tokenUrl = TOKEN_LINE.exec(cli.stdout())?.[1] ?? '';
  const propertyUrl = PROPERTY_LINE.exec(cli.stdout())?.[1] ?? '';
  expect(propertyUrl).not.toBe('');

  const tokenAnswer = await request(tokenUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from('e2e-client:e2e-reso-secret-value').toString('base64')}`,
    },
    body: 'grant_type=client_credentials',
  });
  expect(tokenAnswer.statusCode).toBe(200);
  const { access_token: token } = (await tokenAnswer.body.json()) as { access_token: string };
  const page = await request(`${propertyUrl}?$top=100`, { headers: { authorization: `Bearer ${token}` } });
  expect(page.statusCode).toBe(200);
  const body = (await page.body.json()) as { value: unknown[]; '@odata.nextLink'?: string };
  expect(body.value).toHaveLength(5);
  expect(body['@odata.nextLink']).toBeUndefined();

  expect((await cli.stop('SIGTERM')).code).toBe(0);
  const output = cli.stdout() + cli.stderr();
  expect(output).not.toContain('e2e-reso-secret-value');
  expect(output).not.toContain(token);
});

/** Runs `script` in bash with exactly `env` (plus PATH), as a user's second shell. */
async function inShell(script: string, env: Readonly<Record<string, string>>): Promise<CliRun> {
  return await new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

it("prints export lines that a second shell eval's to pull from it with sync --replicate", async () => {
  cli = startCli(['sim', '--reso', '--reso-records', '6', '--chatbot', 'bot-exports'], {});
  await cli.waitFor(/export FEED_OAUTH_CLIENT_SECRET=.*\n/);
  const exports = cli
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('export '));
  const names = exports.map((line) => /^export (\w+)=/.exec(line)?.[1]);
  expect(names).toEqual([
    'API_BASE_URL',
    'API_SECRET_KEY',
    'API_SESSION_KEY',
    'PROJECT_AUTH_TOKEN',
    'RESO_FEED_URL',
    'FEED_OAUTH_TOKEN_URL',
    'FEED_OAUTH_CLIENT_ID',
    'FEED_OAUTH_CLIENT_SECRET',
  ]);

  const prefix = uniquePrefix('sim-exports');
  const redisUrl = inject('redisUrl');
  const script =
    `eval "$SIM_EXPORTS"\n` +
    `exec "${process.execPath}" "${CLI_ENTRY}" sync --replicate --feed "$RESO_FEED_URL" --profile reso --chatbot bot-exports --work --json`;
  const run = await inShell(script, { SIM_EXPORTS: exports.join('\n'), REDIS_URL: redisUrl, LISTING_SYNC_PREFIX: prefix });
  expect(run.code, run.stderr).toBe(0);
  const out = jsonOf<{ plan: { create: number }; result?: { created: number; failed: number } }>(run);
  expect(out.plan.create).toBe(6);
  expect(out.result).toMatchObject({ created: 6, failed: 0 });
  await cleanPrefix(redisUrl, prefix);
  expect((await cli.stop('SIGTERM')).code).toBe(0);
}, 60_000);
