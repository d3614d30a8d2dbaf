/**
 * Packaging: the Dockerfile (read as text: no Docker engine runs here, so no `docker build`), the
 * container health check script (run for real against Redis and an HTTP server), and
 * docker-compose.yml as the compose tool resolves it (`docker-compose config`, which needs no
 * engine; skipped with a reason when no compose tool is installed).
 */
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { resolveConfig } from '../../src/config/config.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string): string => readFileSync(join(root, path), 'utf8');
const pkg = JSON.parse(read('package.json')) as { bin: Record<string, string> };

interface Instruction {
  keyword: string;
  args: string;
  /** Index of the build stage (-1 before the first FROM). */
  stage: number;
}

/** Dockerfile text → instructions: comments and blank lines dropped, `\` continuations joined. */
function parseDockerfile(text: string): Instruction[] {
  const instructions: Instruction[] = [];
  let pending = '';
  let stage = -1;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    pending += (pending === '' ? '' : ' ') + line.replace(/\\$/, '').trim();
    if (line.endsWith('\\')) continue;
    const [keyword = '', ...rest] = pending.split(/\s+/);
    if (keyword.toUpperCase() === 'FROM') stage += 1;
    instructions.push({ keyword: keyword.toUpperCase(), args: rest.join(' '), stage });
    pending = '';
  }
  return instructions;
}

describe('Dockerfile', () => {
  const instructions = parseDockerfile(read('Dockerfile'));
  const froms = instructions.filter((i) => i.keyword === 'FROM');
  const lastStage = froms.length - 1;
  const inStage = (stage: number, keyword: string): Instruction[] => instructions.filter((i) => i.stage === stage && i.keyword === keyword);
  const buildStageName = /\bAS\s+(\S+)/i.exec(froms[0]?.args ?? '')?.[1];

  it('is multi-stage: installs everything and builds first, ships production dependencies and dist only', () => {
    expect(froms.length).toBeGreaterThanOrEqual(2);
    expect(buildStageName).toBeDefined();
    const buildRuns = inStage(0, 'RUN')
      .map((i) => i.args)
      .join('\n');
    expect(buildRuns).toMatch(/npm ci\b/);
    expect(buildRuns).toMatch(/npm run build|tsc\b/);
    const finalRuns = inStage(lastStage, 'RUN')
      .map((i) => i.args)
      .join('\n');
    expect(finalRuns).toMatch(/npm ci\b[^\n]*--omit=dev/);
    // Without --ignore-scripts, `prepare` (tsc) would run in a stage that has no TypeScript.
    expect(finalRuns).toMatch(/npm ci\b[^\n]*--ignore-scripts/);
    const copiedFromBuild = inStage(lastStage, 'COPY').filter((i) => i.args.includes(`--from=${buildStageName ?? '?'}`));
    expect(copiedFromBuild.map((i) => i.args).join('\n')).toMatch(/\/dist\b/);
  });

  it('runs as a non-root user, has a HEALTHCHECK, and has listing-sync as entrypoint with worker as default', () => {
    const users = inStage(lastStage, 'USER');
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)?.args).not.toMatch(/^(root|0)(:|$)/);
    const healthcheck = inStage(lastStage, 'HEALTHCHECK').at(-1)?.args ?? '';
    expect(healthcheck).toMatch(/\bCMD\b/);
    const script = /\/app\/(\S+?\.mjs)/.exec(healthcheck)?.[1];
    expect(script && existsSync(join(root, script)), 'the HEALTHCHECK script exists in the repo').toBe(true);
    expect(inStage(lastStage, 'COPY').some((i) => script !== undefined && i.args.includes(script))).toBe(true);
    expect(JSON.parse(inStage(lastStage, 'ENTRYPOINT').at(-1)?.args ?? 'null')).toEqual(['node', `/app/${pkg.bin['listing-sync'] ?? '?'}`]);
    expect(JSON.parse(inStage(lastStage, 'CMD').at(-1)?.args ?? 'null')).toEqual(['worker']);
  });

  it('copies only files that exist and that .dockerignore lets in; secrets and local builds stay out', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'));
    const sources = instructions
      .filter((i) => (i.keyword === 'COPY' || i.keyword === 'ADD') && !i.args.includes('--from='))
      .flatMap((i) =>
        i.args
          .split(/\s+/)
          .filter((a) => !a.startsWith('--'))
          .slice(0, -1),
      );
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect(existsSync(join(root, source)), source).toBe(true);
      expect(
        ignored.filter((pattern) => source === pattern || source.startsWith(`${pattern}/`)),
        source,
      ).toEqual([]);
    }
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', '.git', 'dist', 'deploy/listing-sync.env']));
  });
});

describe('deploy/listing-sync.env.example', () => {
  it('documents every setting, and the real env file is git-ignored', () => {
    const example = read('deploy/listing-sync.env.example');
    const names = [
      'API_BASE_URL',
      'SITE_URL',
      'API_SECRET_KEY',
      'API_SESSION_KEY',
      'PROJECT_AUTH_TOKEN',
      'LISTING_SYNC_PREFIX',
      'LISTING_SYNC_CONCURRENCY',
      'LISTING_SYNC_GLOBAL_CONCURRENCY',
      'LISTING_SYNC_RATE',
      'LISTING_SYNC_RECONCILE_MS',
      'LISTING_SYNC_STUCK_AFTER_MIN',
      'LISTING_SYNC_KEEP_DAYS',
      'LISTING_SYNC_KEEP_RUNS',
      'LISTING_SYNC_KEEP_COMPLETED_HOURS',
      'FEED_OAUTH_TOKEN_URL',
      'FEED_OAUTH_CLIENT_ID',
      'FEED_OAUTH_CLIENT_SECRET',
      'FEED_OAUTH_SCOPE',
      'FEED_TOKEN',
      'DASHBOARD_USER',
      'DASHBOARD_PASSWORD',
      'DASHBOARD_TOKEN',
      'LOG_LEVEL',
    ];
    for (const name of names) expect(example, name).toMatch(new RegExp(`^${name}=`, 'm'));
    expect(read('.gitignore').split('\n')).toContain('deploy/listing-sync.env');
  });

  it('is accepted by the config as shipped (empty values count as unset), with REDIS_URL from the compose file', () => {
    const env: Record<string, string> = {};
    for (const line of read('deploy/listing-sync.env.example').split('\n')) {
      const match = /^([A-Z_]+)=(.*)$/.exec(line);
      if (match?.[1] !== undefined) env[match[1]] = match[2] ?? '';
    }
    const config = resolveConfig({ env: { ...env, REDIS_URL: 'redis://redis:6379' } });
    expect(config.api.baseUrl).toBe('http://sim:4000');
    // REDIS_PASSWORD from the env file joins the compose file's REDIS_URL (the bundled Redis's requirepass).
    expect(config.redis).toEqual({ url: 'redis://:change-me-redis-password@redis:6379', prefix: 'listing-sync' });
    expect(config.worker.globalConcurrency).toBeUndefined();
  });
});

interface Exit {
  code: number | null;
  output: string;
}

function runNode(args: string[], env: Record<string, string>): Promise<Exit> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'REDIS_URL' && !name.startsWith('DASHBOARD_')));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, env: { ...clean, ...env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('deploy/healthcheck.mjs (the image HEALTHCHECK)', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  async function listen(handler: Parameters<typeof createServer>[1]): Promise<number> {
    const started = createServer(handler);
    server = started;
    await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve));
    return (started.address() as AddressInfo).port;
  }

  it('is healthy when Redis answers PING, unhealthy (without printing the URL password) when it does not', async () => {
    expect(await runNode(['deploy/healthcheck.mjs'], { REDIS_URL: inject('redisUrl') })).toEqual({ code: 0, output: '' });
    const closedPort = await listen(() => {});
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    server = undefined;
    const down = await runNode(['deploy/healthcheck.mjs'], { REDIS_URL: `redis://:hc-secret-pw@127.0.0.1:${closedPort}` });
    expect(down.code).toBe(1);
    expect(down.output).toContain('unhealthy');
    expect(down.output).not.toContain('hc-secret-pw');
  });

  it('checks the dashboard /healthz with the DASHBOARD_* credentials (token or basic), and fails without them', async () => {
    const basic = `Basic ${Buffer.from('ops:hc-pw').toString('base64')}`;
    const port = await listen((req, res) => {
      const ok = req.url === '/healthz' && (req.headers.authorization === 'Bearer hc-token' || req.headers.authorization === basic);
      res.writeHead(ok ? 200 : 401).end(ok ? 'ok' : 'Authentication required.');
    });
    const url = `http://127.0.0.1:${port}/healthz`;
    expect((await runNode(['deploy/healthcheck.mjs', url], { DASHBOARD_TOKEN: 'hc-token' })).code).toBe(0);
    expect((await runNode(['deploy/healthcheck.mjs', url], { DASHBOARD_USER: 'ops', DASHBOARD_PASSWORD: 'hc-pw' })).code).toBe(0);
    const refused = await runNode(['deploy/healthcheck.mjs', url], {});
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('401');
  });
});

function run(file: string, args: string[], cwd: string): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, timeout: 20_000 }, (error, stdout, stderr) => resolve({ ok: error === null, stdout, stderr }));
  });
}

let composeFound: Promise<string[] | undefined> | undefined;

/** The compose tool to validate with: Debian's docker-compose v1, else the docker compose v2 plugin. */
function composeCommand(): Promise<string[] | undefined> {
  composeFound ??= (async () => {
    if ((await run('docker-compose', ['version'], root)).ok) return ['docker-compose'];
    if ((await run('docker', ['compose', 'version'], root)).ok) return ['docker', 'compose'];
    return undefined;
  })();
  return composeFound;
}

type ComposeService = Record<string, unknown> & { command?: string[] | string; environment?: Record<string, string | null> };
interface ComposeModel {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const words = (value: unknown): string => (Array.isArray(value) ? value.join(' ') : String(value ?? ''));

describe('docker-compose.yml (resolved by the compose tool)', () => {
  let work: string | undefined;
  afterEach(() => {
    if (work) rmSync(work, { recursive: true, force: true });
    work = undefined;
  });

  /** A copy of the compose file in a temp dir, with the example env file as deploy/listing-sync.env. */
  function workdir(withEnvFile: boolean): string {
    work = mkdtempSync(join(tmpdir(), 'listing-sync-compose-'));
    copyFileSync(join(root, 'docker-compose.yml'), join(work, 'docker-compose.yml'));
    mkdirSync(join(work, 'deploy'));
    if (withEnvFile) copyFileSync(join(root, 'deploy/listing-sync.env.example'), join(work, 'deploy/listing-sync.env'));
    return work;
  }

  it('validates, and runs Redis durable, workers scalable, the dashboard health-checked, secrets from the env file', async (ctx) => {
    const compose = await composeCommand();
    if (!compose)
      return ctx.skip('no compose tool installed (apt-get install docker-compose gives v1.29.2, which validates without an engine)');
    const [bin = '', ...pre] = compose;
    const resolved = await run(bin, [...pre, '--profile', 'sim', 'config'], workdir(true));
    expect(resolved.ok, resolved.stderr).toBe(true);
    const model = parseYaml(resolved.stdout) as ComposeModel;
    const { redis, worker, scheduler, dashboard, sim } = model.services;

    expect(words(redis?.command)).toMatch(/--appendonly yes/);
    expect(words(redis?.command)).toMatch(/--maxmemory-policy noeviction/);
    const redisVolumes = (redis?.volumes ?? []) as Array<string | { source?: string; target?: string }>;
    const dataVolume = redisVolumes
      .map((v) => (typeof v === 'string' ? v.split(':')[0] : v.target === '/data' ? v.source : undefined))
      .find(Boolean);
    expect(Object.keys(model.volumes ?? {})).toContain(dataVolume);

    for (const scalable of [worker, scheduler]) {
      expect(scalable).toBeDefined();
      expect(words(scalable?.command)).toBe('worker');
      expect(scalable).not.toHaveProperty('container_name');
      expect(scalable).not.toHaveProperty('ports');
      expect(scalable?.environment?.REDIS_URL).toBe('redis://redis:6379');
      // A scheduled sync runs in whichever worker is free: every one must see the feeds.
      expect(JSON.stringify(scalable?.volumes)).toMatch(/[:"]\/feeds(:ro)?"/);
    }
    expect(words(dashboard?.command)).toMatch(/^dashboard .*--port 3000/);
    expect(words((dashboard?.healthcheck as { test?: unknown } | undefined)?.test)).toContain('/healthz');
    expect(JSON.stringify(dashboard?.ports)).toContain('3000');
    expect(sim?.profiles).toEqual(['sim']);

    // The secrets reach the containers from the env file, and are not written in the compose file.
    expect(worker?.environment?.API_SECRET_KEY).toBe('change-me-secret-key');
    expect(dashboard?.environment?.DASHBOARD_PASSWORD).toBe('change-me-dashboard-password');
    expect(read('docker-compose.yml')).not.toMatch(/change-me|API_SECRET_KEY\s*[:=]/);
  });

  it('refuses to start without deploy/listing-sync.env, naming it', async (ctx) => {
    const compose = await composeCommand();
    if (!compose) return ctx.skip('no compose tool installed');
    const [bin = '', ...pre] = compose;
    const resolved = await run(bin, [...pre, 'config', '-q'], workdir(false));
    expect(resolved.ok).toBe(false);
    expect(resolved.stderr).toContain('listing-sync.env');
  });
});
