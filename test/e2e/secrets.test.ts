/**
 * Secrets never reach output: the built CLI is run for successes and failures with debug logging
 * and distinctive credential values (and a Redis URL with a password), and neither stdout nor
 * stderr may contain any of them. The same for `sync --replicate`: the feed's client secret, a
 * static FEED_TOKEN and every access token the MLS issued are in no output, run record, source
 * record or report. Plus the logger itself, in-process.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { resolveConfig } from '../../src/config/config.js';
import { createCliLogger } from '../../src/cli/wiring/api-wiring.js';
import { createLogger } from '../../src/runtime/logger.js';
import { DEFAULT_SIM_RANDOM_CODE, type RunningSimulator } from '../../src/sim/server.js';
import { sampleListing } from '../../src/sim/sample-listings.js';
import { simEnv, startTestSim } from '../helpers/sim.js';
import { fetchAccessToken, FEED_SECRET, resoFixtures, WITHOUT_OAUTH, type Replicated } from '../helpers/reso-fixture.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { CLI_ENTRY, jsonOf, runCli, type CliRun } from '../helpers/run-cli.js';

const BOT = 'bot-secret';
const CREDENTIALS = {
  secretKey: 'SK-Secret-7f3a9c1e-Alpha',
  sessionKey: 'SS-Session-4b8d2e6f-Bravo',
  projectAuthToken: 'PT-Token-9e1c5a3b-Charlie',
};
const REDIS_PASSWORD = 'SuperSecretRedisPw';
const WRONG_TOKEN = 'PT-Wrong-0d0d0d0d-Delta';
const ALL_SECRETS = [...Object.values(CREDENTIALS), REDIS_PASSWORD, WRONG_TOKEN];

let sim: RunningSimulator;
let dir: string;

beforeEach(async () => {
  sim = await startTestSim({ credentials: CREDENTIALS, chatbots: [BOT], listings: { [BOT]: [sampleListing(1, { SerialNumber: BOT })] } });
  dir = await mkdtemp(join(tmpdir(), 'ls-secrets-'));
});

afterEach(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

function expectNoSecret(text: string): void {
  for (const secret of ALL_SECRETS) expect(text).not.toContain(secret);
}

describe('the CLI as a process', () => {
  it('prints no secret in any output, success or failure, at LOG_LEVEL=debug', async () => {
    const env = { ...simEnv(sim), LOG_LEVEL: 'debug', REDIS_URL: `redis://:${REDIS_PASSWORD}@127.0.0.1:1/0` };
    const listingFile = join(dir, 'listing.json');
    await writeFile(listingFile, JSON.stringify(sampleListing(2, { SerialNumber: BOT })));
    const runs: CliRun[] = [];
    runs.push(await runCli(['listings', 'list', '--chatbot', BOT, '--all', '--json'], env));
    runs.push(await runCli(['listings', 'create', '--file', listingFile], env));
    runs.push(await runCli(['chatbot', 'edit', '--chatbot', BOT, '--set', 'Temperature=1'], env));
    runs.push(await runCli(['tables', '--random-code', DEFAULT_SIM_RANDOM_CODE], env));
    // Failures: a rejected credential, a service fault, bad input, a bad config echoing values.
    runs.push(await runCli(['tables', '--random-code', DEFAULT_SIM_RANDOM_CODE], { ...env, PROJECT_AUTH_TOKEN: WRONG_TOKEN }));
    runs.push(await runCli(['chatbot', 'edit', '--chatbot', BOT, '--set', 'Colour=1'], env));
    runs.push(
      await runCli(['listings', 'list', '--chatbot', BOT], {
        ...env,
        REDIS_URL: `http://:${REDIS_PASSWORD}@127.0.0.1:1`,
        API_SECRET_KEY: `${CREDENTIALS.secretKey}\n`,
      }),
    );
    sim.state.setFaults({ envelopeFailureRate: 1, seed: 3 });
    runs.push(await runCli(['listings', 'delete', '--chatbot', BOT, '--key-type', 'MLSNumber', 'ML100001'], env));

    expect(runs.map((run) => run.code)).toEqual([0, 0, 0, 0, 1, 2, 2, 1]);
    // The runs did log: per-request debug lines reached stderr (so this test can see a leak).
    const stderr = runs.map((run) => run.stderr).join('\n');
    expect(stderr).toContain('"msg":"api call"');
    expect(stderr).toContain('"msg":"configuration"');
    expect(stderr).toContain('redis://:***@127.0.0.1:1/0');
    expect(stderr).toContain("REDIS_URL: must be a redis:// or rediss:// URL (got 'http://:***@127.0.0.1:1')");
    expect(stderr).toContain('API_SECRET_KEY: must not contain line breaks or control characters');
    for (const run of runs) expectNoSecret(`${run.stdout}\n${run.stderr}`);
  });
});

describe('sync --replicate as a process', () => {
  const start = resoFixtures();
  const RESO_BOT = 'bot-secret-reso';
  const WRONG_FEED_SECRET = 'reso-wrong-secret-5e7a1c3d-Echo';

  it('prints and stores no feed client secret, FEED_TOKEN or issued access token, at LOG_LEVEL=debug', async () => {
    // Short-lived tokens revoked early and a first page answered 401: one run goes through several tokens.
    const f = await start({
      chatbots: [RESO_BOT],
      records: 12,
      photos: 2,
      reso: { maxTop: 5, tokenTtlSeconds: 1, faults: { tokenRevokeAfterMs: 300, nextStatuses: [401] } },
      label: 'secrets-reso',
    });
    const { reso } = f;
    const reports = [join(dir, 'pull.json'), join(dir, 'static.csv')];
    const runs: CliRun[] = [];
    const pulled = await f.replicate(RESO_BOT, { extra: ['--sweep', '--report', reports[0] ?? ''] });
    runs.push(pulled);
    expect(pulled.code, pulled.stderr).toBe(0);

    // A static FEED_TOKEN (one the user fetched), then the same token revoked by the MLS.
    reso.state.configure({ tokenTtlSeconds: 3600, faults: {} });
    const staticToken = await fetchAccessToken(reso);
    reso.state.records.modify({ keys: [f.keys()[0] ?? ''] });
    const withToken = { ...WITHOUT_OAUTH, FEED_TOKEN: staticToken };
    const statics = await f.replicate(RESO_BOT, { extra: ['--report', reports[1] ?? ''], env: withToken });
    runs.push(statics);
    expect(statics.code, statics.stderr).toBe(0);
    reso.state.revokeTokens();
    runs.push(await f.replicate(RESO_BOT, { env: withToken }));
    // A wrong client secret, and 429s until the run halts.
    runs.push(await f.replicate(RESO_BOT, { env: { FEED_OAUTH_CLIENT_SECRET: WRONG_FEED_SECRET } }));
    reso.state.configure({ faults: { retryAfterSeconds: 0, nextStatuses: [429, 429, 429] } });
    runs.push(await f.replicate(RESO_BOT));
    expect(runs.map((run) => run.code)).toEqual([0, 0, 2, 2, 1]);

    const shown: CliRun[] = [];
    for (const run of [pulled, statics]) shown.push(await runCli(['runs', 'show', jsonOf<Replicated>(run).runId, '--json'], f.env()));
    shown.push(await runCli(['runs', 'list', '--chatbot', RESO_BOT, '--json'], f.env()));
    shown.push(await runCli(['sources', 'show', '--chatbot', RESO_BOT, '--feed', reso.propertyUrl, '--json'], f.env()));
    shown.push(await runCli(['sources', 'list', '--json'], f.env()));
    expect(shown.map((run) => run.code)).toEqual([0, 0, 0, 0, 0]);
    const reported = await Promise.all(reports.map((file) => readFile(file, 'utf8')));

    // The search means something: the runs logged at debug, several tokens were issued, the records hold the run.
    const stderr = runs.map((run) => run.stderr).join('\n');
    expect(stderr).toContain('"level":20');
    const tokens = reso.state.issuedTokens();
    expect(tokens.length).toBeGreaterThanOrEqual(3);
    expect(tokens).toContain(staticToken);
    expect(shown[0]?.stdout).toContain(jsonOf<Replicated>(pulled).runId);
    expect(reported[0]).toContain(f.listingIdOf(f.keys()[0] ?? ''));
    const secrets = [FEED_SECRET, WRONG_FEED_SECRET, ...tokens];
    const texts = [...[...runs, ...shown].flatMap((run) => [run.stdout, run.stderr]), ...reported];
    for (const text of texts) for (const secret of secrets) expect(text).not.toContain(secret);
  });
});

describe('alert webhooks', () => {
  const HOOK_PATH_SECRET = 'T0SECRET/B0SECRET/HookPathSecret-6c2f-Foxtrot';
  const HOOK_QUERY_SECRET = 'hook-query-secret-8d1e-Golf';
  const HOOK_SECRETS = [HOOK_PATH_SECRET, HOOK_QUERY_SECRET];
  const DASHBOARD_TOKEN = 'dash-token-secrets-3a9b';
  const ALL_REJECTED_FEED = join(import.meta.dirname, '../../fixtures/sync/all-rejected.csv');
  const ONE_FEED = join(import.meta.dirname, '../../fixtures/sync/listings-0-2.csv');
  const redisUrl = inject('redisUrl');
  let prefix = '';
  let receiver: WebhookReceiver | undefined;
  let dashboard: ChildProcess | undefined;

  afterEach(async (ctx) => {
    if (dashboard && dashboard.exitCode === null) {
      const exited = new Promise((done) => dashboard?.once('exit', done));
      dashboard.kill('SIGTERM');
      await exited;
    }
    await receiver?.close();
    if (prefix !== '' && (ctx.task.result?.errors ?? []).length === 0) await cleanPrefix(redisUrl, prefix);
    dashboard = undefined;
    receiver = undefined;
    prefix = '';
  });

  /** Every value under the prefix, the alert configurations included (the URL is sealed there). */
  async function redisTexts(): Promise<string> {
    const redis = new Redis(redisUrl);
    const texts: string[] = [];
    try {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        cursor = next;
        for (const key of keys) {
          const type = await redis.type(key);
          if (type === 'string') texts.push((await redis.get(key)) ?? '');
          else if (type === 'hash') texts.push(JSON.stringify(await redis.hgetall(key)));
          else if (type === 'list') texts.push(JSON.stringify(await redis.lrange(key, 0, -1)));
          else if (type === 'set') texts.push(JSON.stringify(await redis.smembers(key)));
          else if (type === 'zset') texts.push(JSON.stringify(await redis.zrange(key, '0', '-1')));
          else if (type === 'stream') texts.push(JSON.stringify(await redis.xrange(key, '-', '+')));
          texts.push(key);
        }
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }
    return texts.join('\n');
  }

  it('never shows the webhook URL whole: CLI output and logs at debug, delivery records, job payloads, dashboard pages', async () => {
    prefix = uniquePrefix('secrets-alerts');
    const r = await startWebhookReceiver();
    receiver = r;
    const webhook = `${r.url}/services/${HOOK_PATH_SECRET}?token=${HOOK_QUERY_SECRET}`;
    const env = { ...simEnv(sim), REDIS_URL: redisUrl, LISTING_SYNC_PREFIX: prefix, LISTING_SYNC_BACKOFF_MS: '5', LOG_LEVEL: 'debug' };
    const runs: CliRun[] = [];
    runs.push(await runCli(['alerts', 'add', 'ops', '--webhook', webhook, '--format', 'slack'], env));
    runs.push(await runCli(['alerts', 'add', 'ops-json', '--webhook', webhook, '--json'], env));
    runs.push(await runCli(['alerts', 'add', 'bad', '--webhook', `${webhook}#x`, '--format', 'xml'], env));
    runs.push(await runCli(['alerts', 'list'], env));
    runs.push(await runCli(['alerts', 'list', '--json'], env));
    runs.push(await runCli(['alerts', 'test', 'ops'], env));
    r.answerNext(500);
    runs.push(await runCli(['alerts', 'test', 'ops', '--json'], env));
    runs.push(await runCli(['sync', '--chatbot', BOT, '--feed', ONE_FEED, '--work'], env, 40_000));
    // Refused: a 500 then a 404 (given up at once, logged as a warning) for one alert, delivered for the other.
    r.answerNext(500, 404);
    runs.push(await runCli(['sync', '--chatbot', BOT, '--feed', ALL_REJECTED_FEED, '--work'], env, 40_000));
    expect(runs.map((run) => run.code)).toEqual([0, 0, 2, 0, 0, 0, 1, 0, 3]);
    // The search means something: hooks were posted to the secret path, logs at debug, a delivery failed.
    expect(r.received.length).toBeGreaterThanOrEqual(5);
    expect(r.received.every((hook) => hook.path === `/services/${HOOK_PATH_SECRET}?token=${HOOK_QUERY_SECRET}`)).toBe(true);
    const stderr = runs.map((run) => run.stderr).join('\n');
    expect(stderr).toContain('"level":20');
    expect(stderr).toContain('the webhook answered HTTP 404');
    expect(runs[3]?.stdout).toContain(`${r.url}/***`);

    const proc = spawn(process.execPath, [CLI_ENTRY, 'dashboard', '--port', '0'], {
      env: { PATH: process.env.PATH ?? '', REDIS_URL: redisUrl, LISTING_SYNC_PREFIX: prefix, DASHBOARD_TOKEN, LOG_LEVEL: 'debug' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    dashboard = proc;
    let dashboardErr = '';
    proc.stderr.on('data', (chunk: Buffer) => (dashboardErr += chunk.toString()));
    const line = await new Promise<string>((done) => createInterface({ input: proc.stdout }).once('line', done));
    const base = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1] ?? '';
    const pages: string[] = [];
    for (const path of ['/alerts', '/health', `/chatbots/${BOT}`, '/metrics', '/queues/api/queues?activeQueue=alerts&status=completed']) {
      const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${DASHBOARD_TOKEN}` } });
      expect(res.status, path).toBe(200);
      pages.push(await res.text());
    }
    expect(pages[0]).toContain(`${r.url}/***`);
    expect(pages[0]).toContain('HTTP 404');

    const texts = [...runs.flatMap((run) => [run.stdout, run.stderr]), ...pages, dashboardErr, await redisTexts()];
    for (const text of texts) for (const secret of HOOK_SECRETS) expect(text).not.toContain(secret);
  }, 120_000);
});

describe('the logger in-process', () => {
  function capture(): { lines: string[]; destination: { write(line: string): void } } {
    const lines: string[] = [];
    return { lines, destination: { write: (line: string) => void lines.push(line) } };
  }

  it('scrubs secret values from fields, headers and messages', () => {
    const out = capture();
    const secret = 'Bearer-abc123-SECRETVALUE';
    const logger = createLogger({ level: 'debug', destination: out.destination, secretValues: [secret] });
    logger.info(
      { headers: { authorization: secret, 'x-other': `prefix ${secret} suffix` }, nested: { deep: { value: secret } } },
      `calling with ${secret}`,
    );
    logger.error(new Error(`server echoed ${secret}`), 'failure');
    const text = out.lines.join('');
    expect(out.lines).toHaveLength(2);
    expect(text).toContain('calling with [redacted]');
    expect(text).not.toContain(secret);
  });

  it('scrubs a secret with a quote, a backslash and a non-ASCII character from the JSON line too', () => {
    const out = capture();
    const secret = 'SS-q"uo\\te-é-9f';
    const logger = createLogger({ level: 'debug', destination: out.destination, secretValues: [secret] });
    logger.info({ failedReason: `echoed ${secret}`, url: `https://x.test/?k=${encodeURIComponent(secret)}` }, `said ${secret}`);
    const text = out.lines.join('');
    expect(text).toContain('said [redacted]');
    for (const form of [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)]) expect(text).not.toContain(form);
  });

  it('createCliLogger scrubs every configured secret, even when the whole config is logged', () => {
    const config = resolveConfig({
      env: {
        API_SECRET_KEY: CREDENTIALS.secretKey,
        API_SESSION_KEY: CREDENTIALS.sessionKey,
        PROJECT_AUTH_TOKEN: CREDENTIALS.projectAuthToken,
        REDIS_URL: `redis://user:${REDIS_PASSWORD}@127.0.0.1:6379/0`,
        LOG_LEVEL: 'debug',
      },
    });
    let text = '';
    const stderr = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    const logger = createCliLogger(config, { stderr });
    logger.debug({ config, url: config.redis.url }, `oops ${CREDENTIALS.sessionKey} ${config.redis.url}`);
    expect(text).toContain('"msg":"oops [redacted]');
    expectNoSecret(text);
  });
});
