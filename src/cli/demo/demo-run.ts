/**
 * What `listing-sync demo` runs, apart from its registration (commands/demo.ts). Why a module of
 * its own: it pulls in the dashboard (express, bull-board, prom-client) and both simulators,
 * ~25 MiB and ~0.2 s of start-up that every other command (`sync --work` first) would pay for
 * nothing if the registration imported them.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMetrics } from '../../dashboard/metrics.js';
import { startDashboard } from '../../dashboard/server.js';
import { sampleListing } from '../../sim/sample-listings.js';
import { startSimulator, type SimFaults } from '../../sim/server.js';
import { createStoreDashboardData } from '../../dashboard/read-model.js';
import { cleanDemoPrefix, findDemoRedis } from './demo-redis.js';
import { checkDemoPort, demoPrefix } from './demo-port.js';
import { DEMO_MLS_CHATBOT, demoFeedEnv, runReplicationAct, startDemoMls } from './demo-replication.js';
import { startDemoPhotos } from './demo-photos.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { CommandHost } from '../host.js';
import type { CliIo } from '../io.js';
import { wholeNumber } from '../input/option-values.js';
import { toSyncRequest } from '../input/sync-options.js';
import { openSyncSession } from '../wiring/sync-session.js';
import { performSync } from '../commands/sync.js';

const DEMO_CHATBOT = 'demo-bot';
/** The chatbot starts with listings 0..39; the feed keeps 0..36 (6 changed), adds 40..51 and has 2 bad rows. */
const SEEDED_LISTINGS = 40;
/** Faults the simulator injects during the demo's sync: each is retried by the queue until it converges. */
const DEMO_FAULTS: SimFaults = {
  seed: 42,
  latencyMs: 15,
  jitterMs: 10,
  envelopeFailureRate: 0.1,
  http503Rate: 0.05,
  rateLimitRate: 0.02,
  commitThenDropRate: 0.03,
};

/** fixtures/demo/listings.csv, found from this file whether run from src (tsx) or dist. */
function demoFeedPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i += 1) {
    const candidate = join(dir, 'fixtures', 'demo', 'listings.csv');
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  throw new Error('fixtures/demo/listings.csv not found next to the installed package');
}

export interface DemoFlags {
  port?: string;
  exitAfterSync?: boolean;
  ownRedis?: boolean;
}

/**
 * A closed stdout or stderr (`npm run demo | head`) ends the demo through the one shutdown, as a
 * signal would. Why: the demo runs until stopped, and a demo nobody can read from would otherwise
 * keep its dashboard, workers and redis-server running unseen.
 */
/** How often the demo looks whether the process that started it is still there. */
const PARENT_CHECK_MS = 500;

/**
 * The demo ends through the one shutdown once the process that started it is gone. Why: `npm run
 * demo` runs it under a shell; a SIGTERM to npm ends that shell, not the demo, which would run on
 * orphaned with its dashboard, workers and redis-server, none of them visible any more.
 */
function stopWhenOrphaned(): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, PARENT_CHECK_MS);
  timer.unref();
}

function stopOnClosedOutput(io: CliIo): void {
  let stopping = false;
  const stop = (error: NodeJS.ErrnoException): void => {
    if (error.code !== 'EPIPE' || stopping) return;
    stopping = true;
    process.kill(process.pid, 'SIGTERM');
  };
  io.stdout.on('error', stop);
  // stdout's other errors are main.ts's; stderr has no other listener, so they stay failures.
  io.stderr.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    stop(error);
  });
}

/** The demo itself (see commands/demo.ts); loaded only when `demo` runs. */
export async function runDemo(host: CommandHost, flags: DemoFlags): Promise<ExitCode> {
  const dashboardPort = wholeNumber(flags.port, '--port', 0) ?? 8080;
  const prefix = demoPrefix(host.io.env);
  if (flags.exitAfterSync !== true) await checkDemoPort(dashboardPort, '127.0.0.1');
  const stopped = new Promise<void>((resolve) => host.io.onShutdown(resolve));
  // Why: closing the terminal sends SIGHUP, which would kill the demo before it stops the
  // redis-server it started; as SIGTERM it goes through the one shutdown, releases included.
  process.once('SIGHUP', () => process.kill(process.pid, 'SIGTERM'));
  stopOnClosedOutput(host.io);
  stopWhenOrphaned();
  const redis = await findDemoRedis(host.io.env, flags.ownRedis === true);
  host.io.releases.push('demo Redis', () => redis.stop());
  const sim = await startSimulator({
    port: 0,
    chatbots: [DEMO_CHATBOT, DEMO_MLS_CHATBOT],
    listings: { [DEMO_CHATBOT]: Array.from({ length: SEEDED_LISTINGS }, (_, i) => sampleListing(i, { SerialNumber: DEMO_CHATBOT })) },
  });
  host.io.releases.push('simulator', () => sim.close());
  const mls = await startDemoMls();
  host.io.releases.push('RESO simulator', () => mls.reso.close());
  const photos = await startDemoPhotos();
  host.io.releases.push('photo server', () => photos.close());
  const say = (line: string): void => void host.io.stderr.write(`${line}\n`);
  say(`demo: simulator at ${sim.baseUrl} holding ${SEEDED_LISTINGS} listings for chatbot ${DEMO_CHATBOT}`);
  say(`demo: Redis from ${redis.origin} (BullMQ prefix ${prefix}, cleaned first; other prefixes are kept)`);
  say(`demo: injecting faults (10% envelope errors, 5% HTTP 503, 2% rate limits, 3% writes whose answer is lost): the queue retries them`);
  // The demo runs as if configured by env: the simulators' URLs and keys, and a Redis it found.
  const io: CliIo = {
    ...host.io,
    env: {
      ...host.io.env,
      API_BASE_URL: sim.baseUrl,
      SITE_URL: sim.siteUrl,
      API_SECRET_KEY: sim.credentials.secretKey,
      API_SESSION_KEY: sim.credentials.sessionKey,
      PROJECT_AUTH_TOKEN: sim.credentials.projectAuthToken,
      REDIS_URL: redis.url,
      LISTING_SYNC_PREFIX: prefix,
      LISTING_SYNC_CONCURRENCY: '8',
      LISTING_SYNC_BACKOFF_MS: '100',
      LISTING_SYNC_BACKOFF_MAX_MS: '2000',
      LOG_LEVEL: host.io.env.LOG_LEVEL ?? 'warn',
      ...demoFeedEnv(mls.reso),
    },
  };
  await cleanDemoPrefix(redis, prefix);
  const feed = demoFeedPath();
  // Why delete scope 'all': listing-sync did not create the seeded listings, so its ledger does
  // not know them; a first sync of such a chatbot adopts what it holds (see docs/guards-and-guarantees.md, "The safety guard").
  const request = toSyncRequest(
    {
      chatbot: DEMO_CHATBOT,
      feed,
      profile: 'native',
      encoding: 'utf-8',
      keyType: 'MLSNumber',
      mode: 'mirror',
      deleteScope: 'all',
      maxDeletes: '10%',
      maxRejected: '5%',
      pageSize: '100',
      force: false,
    },
    { dryRun: false, trigger: 'demo' },
  );
  say(`demo: listing-sync sync --chatbot ${DEMO_CHATBOT} --feed ${feed} --delete-scope all --work`);
  const session = await openSyncSession(io, {}, true, true);
  sim.state.setFaults(DEMO_FAULTS);
  const synced = await performSync(io, session, request, { work: true });
  sim.state.setFaults({});
  const replicated = await runReplicationAct(io, session, mls, photos, say);
  const code = synced === EXIT.ok ? replicated : synced;
  if (flags.exitAfterSync) return code;
  const user = 'demo';
  const password = randomBytes(9).toString('base64url');
  const dashboard = await startDashboard({
    port: dashboardPort,
    host: '127.0.0.1',
    auth: { user, password },
    readOnly: false,
    data: createStoreDashboardData(session.ctx.store, session.ctx.queues, session.config.redis.prefix),
    queues: [session.ctx.queues.writes, session.ctx.queues.syncRuns, session.ctx.queues.alerts],
    redisAvailable: () => session.ctx.watch.isUp(),
    metrics: createMetrics(),
    logger: session.logger,
    mediaBaseUrl: photos.baseUrl,
  });
  host.io.releases.push('dashboard server', () => dashboard.close());
  host.io.stdout.write(
    `\ndashboard: ${dashboard.url}/  (user ${user}, password ${password})\nphotos: ${dashboard.url}/chatbots/` +
      `${DEMO_MLS_CHATBOT}/photos shows the MLS's photos as the chatbot's Images, rehosted at ${photos.baseUrl}/\n` +
      `workers keep running: retry failed jobs from the dashboard. Ctrl-C to stop.\n`,
  );
  await stopped;
  return code;
}
