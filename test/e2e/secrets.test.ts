/**
 * Secrets never reach output: the built CLI is run for successes and failures with debug logging
 * and distinctive credential values (and a Redis URL with a password), and neither stdout nor
 * stderr may contain any of them. Plus the logger itself, in-process.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config.js';
import { createCliLogger } from '../../src/cli/api-wiring.js';
import { createLogger } from '../../src/logger.js';
import { DEFAULT_SIM_RANDOM_CODE, type RunningSimulator } from '../../src/sim/server.js';
import { sampleListing } from '../../src/sim/sample-listings.js';
import { simEnv, startTestSim } from '../helpers/sim.js';
import { runCli, type CliRun } from './run-cli.js';

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
