/**
 * The demo's replication act: an MLS served by the RESO Web API simulator (as `sim --reso` runs
 * it) is replicated into a chatbot of the service simulator through the same runSync and
 * replication wiring as `sync --replicate --work`. Then the MLS changes a few records and
 * withdraws one through the simulator's admin API, and the next run pulls only those. The feed
 * credentials are the simulator's own test client; they reach the sync through the session's
 * config (FEED_OAUTH_*), as a user's would, and are never printed. The MLS's photos come from the
 * simulator's media host (its downloads need the access token as User-Agent, as MLS Grid's do) and
 * are hosted in the demo's file store, served on loopback (demo-photos.ts): the chatbot's Images
 * are rehosted ones, never the MLS's URLs.
 */
import { sleep } from '../../net/abortable-sleep.js';
import { parseFeedBudget } from '../../feed/reso-api/budget-spec.js';
import { startResoSimulator, type RunningResoSimulator } from '../../sim/reso/server.js';
import { runSync } from '../../sync/run-sync.js';
import { resultOf, syncVerdict } from '../../sync/run-verdict.js';
import { formatSummary } from '../../sync/format-summary.js';
import { feedBudgetId, replicationFeedId } from '../../sync/replication-ids.js';
import type { SyncRequest } from '../../sync/sync-request.js';
import { waitForRun } from '../../sync/wait-for-run.js';
import { firstPullLine, nextPullLine, sourcesShowLines, watermarkLine, type DemoPull } from '../output/demo-replication-lines.js';
import { EXIT, exitCodeOfVerdict, type ExitCode } from '../exit-codes.js';
import { replicationLine } from '../output/format-replication.js';
import type { CliIo } from '../io.js';
import { syncDeps } from '../wiring/queue-wiring.js';
import { toSyncRequest } from '../input/sync-options.js';
import type { SyncSession } from '../wiring/sync-session.js';
import type { Config } from '../../config/config.js';
import { photosPullLine } from '../output/demo-replication-lines.js';
import type { DemoPhotos } from './demo-photos.js';

/** The chatbot the MLS is replicated into (beside the file demo's chatbot). */
export const DEMO_MLS_CHATBOT = 'demo-mls';
const MLS_RECORDS = 25;
const PHOTOS_PER_RECORD = 3;
/**
 * Why an hour apart: further apart than the default overlap (20 min), so the second run's
 * `ge watermark − overlap` holds only the records the MLS changed, as a nightly pull would.
 */
const SEED_STEP_MS = 60 * 60_000;
const OVERLAP = '20m';
const BUDGET = 'mls-grid';
/** Records the MLS changes between the two pulls (the newest, stamped at the watermark, among them) and the one it withdraws. */
const CHANGED = [24, 6, 12] as const;
const WITHDRAWN = 18;
const WAIT_MS = 30_000;
const MAX_SECOND_WAIT_MS = 2000;

export interface DemoMls {
  reso: RunningResoSimulator;
  /** ListingKeys in ModificationTimestamp order. */
  keys: readonly string[];
}

/** Starts the MLS (RESO simulator on a free loopback port) holding MLS_RECORDS records stamped an hour apart up to now. */
export async function startDemoMls(): Promise<DemoMls> {
  const reso = await startResoSimulator({ port: 0, host: '127.0.0.1' });
  // Why the media host on, with its User-Agent rule: the demo hosts the photos the way an MLS Grid feed requires.
  reso.state.media.configure({ enabled: true, tokenUserAgent: true });
  const keys = reso.state.records.seed({ count: MLS_RECORDS, stepMs: SEED_STEP_MS, photos: PHOTOS_PER_RECORD });
  return { reso, keys };
}

/** The env the demo's session takes for the feed server: the simulator's own test client. */
export function demoFeedEnv(reso: RunningResoSimulator): Record<string, string> {
  return {
    FEED_OAUTH_TOKEN_URL: reso.tokenUrl,
    FEED_OAUTH_CLIENT_ID: reso.credentials.clientId,
    FEED_OAUTH_CLIENT_SECRET: reso.credentials.clientSecret,
  };
}

function replicateRequest(feed: string): SyncRequest {
  return toSyncRequest(
    {
      chatbot: DEMO_MLS_CHATBOT,
      feed,
      profile: 'reso',
      encoding: 'utf-8',
      keyType: 'MLSNumber',
      deleteScope: 'managed',
      maxDeletes: '10%',
      maxRejected: '5%',
      pageSize: '100',
      force: false,
      replicate: true,
      feedBudget: BUDGET,
      overlap: OVERLAP,
    },
    { dryRun: false, trigger: 'demo' },
  );
}

/** The session's settings with the demo's photo store and its address (as --media-store and --media-base-url would set them). */
function withPhotos(config: Config, photos: DemoPhotos): Config {
  return { ...config, media: { ...config.media, store: photos.storeUrl, baseUrl: photos.baseUrl } };
}

/** One `sync --replicate --work`: runSync with the session's wiring, then its jobs worked by the session's workers. */
async function pull(io: CliIo, session: SyncSession, feed: string, photos: DemoPhotos): Promise<{ pulled?: DemoPull; code: ExitCode }> {
  const request = replicateRequest(feed);
  const deps = { ...syncDeps(session.api, session.ctx, withPhotos(session.config, photos), session.logger), signal: session.signal };
  const outcome = await runSync(deps, request);
  const { summary, replication } = outcome;
  if (summary.guard.ok) {
    const counts = await waitForRun(session.ctx.store, summary.runId, { signal: session.signal, timeoutMs: WAIT_MS });
    summary.result = resultOf(counts);
  }
  const code = exitCodeOfVerdict(syncVerdict(summary));
  if (code === EXIT.ok && replication?.status === 'done' && summary.result !== undefined)
    return { pulled: { replication, result: summary.result }, code };
  // Why the whole summary: a demo that went wrong must say why, as `sync` would.
  io.stdout.write(`${formatSummary(summary, outcome.rejected)}${replication === undefined ? '' : replicationLine(replication)}`);
  return { code: code === EXIT.ok ? EXIT.failed : code };
}

/** `sources show --feed-budget` as the command computes it: the source record and the credential's budget usage now. */
async function sourcesShow(session: SyncSession, feed: string): Promise<string> {
  const { store } = session.ctx;
  const source = await store.feedSources.show(DEMO_MLS_CHATBOT, replicationFeedId(feed));
  if (source === undefined) return '';
  const budget = store.feedBudget(feedBudgetId(feed, session.config.feedAuth.oauth), parseFeedBudget(BUDGET));
  let usage = await budget.usage();
  // Why wait out the rolling second: two pulls within it fill mls-grid's 2/s, and "exhausted" would read as a fault.
  if (usage.exhausted !== undefined && usage.exhausted.retryAtMs - usage.readAtMs <= MAX_SECOND_WAIT_MS) {
    await sleep(usage.exhausted.retryAtMs - usage.readAtMs, session.signal);
    usage = await budget.usage();
  }
  return sourcesShowLines(`listing-sync sources show --chatbot ${DEMO_MLS_CHATBOT} --feed ${feed} --feed-budget ${BUDGET}`, source, usage);
}

/** Runs the act in an open session (workers in this process); `say` narrates on stderr. */
export async function runReplicationAct(
  io: CliIo,
  session: SyncSession,
  mls: DemoMls,
  photos: DemoPhotos,
  say: (line: string) => void,
): Promise<ExitCode> {
  const { reso, keys } = mls;
  const feed = reso.propertyUrl;
  say(
    `demo: an MLS (RESO Web API simulator) at ${feed} holds ${MLS_RECORDS} records; its OAuth2 test client is in ` +
      `FEED_OAUTH_* (never printed)`,
  );
  say(`demo: its photos are hosted in a file store at ${photos.dir}, served at ${photos.baseUrl}/ (a web server over the directory)`);
  const command =
    `listing-sync sync --chatbot ${DEMO_MLS_CHATBOT} --feed ${feed} --profile reso --replicate ` +
    `--feed-budget ${BUDGET} --media-store ${photos.storeUrl} --media-base-url ${photos.baseUrl} --work`;
  say(`demo: ${command}`);
  const first = await pull(io, session, feed, photos);
  if (first.pulled === undefined) return first.code;
  io.stdout.write(`\n${firstPullLine(first.pulled, DEMO_MLS_CHATBOT)}${photosPullLine(first.pulled, photos.baseUrl)}`);

  const pick = (index: number): string => keys[index] ?? '';
  reso.state.records.modify({ keys: CHANGED.map(pick) });
  reso.state.records.setStatus({ keys: [pick(WITHDRAWN)], status: 'Withdrawn' });
  say(
    `demo: the MLS changes ${CHANGED.length} records (a new ListPrice) and withdraws 1 (StandardStatus ` +
      `Withdrawn) through the simulator's admin API; the same command again:`,
  );
  const next = await pull(io, session, feed, photos);
  if (next.pulled === undefined) return next.code;
  io.stdout.write(`${nextPullLine(next.pulled, MLS_RECORDS)}${photosPullLine(next.pulled, photos.baseUrl)}`);
  io.stdout.write(watermarkLine(next.pulled.replication.watermark, OVERLAP));
  io.stdout.write(await sourcesShow(session, feed));
  return EXIT.ok;
}
