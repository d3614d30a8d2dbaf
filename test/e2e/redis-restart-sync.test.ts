/**
 * `listing-sync sync --work` (the built CLI as a process) while its Redis — a redis-server of the
 * test's own, AOF everysec — restarts mid-run: the command finishes by itself with the converged
 * result and exit 0, without a "Connection is closed" flood and without a stack trace. Judged by
 * the simulator: the chatbot holds the feed, no key was created twice, and the same feed again
 * plans nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ListingWrite } from '../../src/domain/listing.js';
import { sampleListing } from '../../src/sim/sample-listings.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import { expectConverged } from '../helpers/converged.js';
import { linesSaying, stackTraceLines, startCli, type CliProcess } from '../helpers/cli-process.js';
import { hasRedisServer, startRedisProcess, type RedisProcess } from '../helpers/redis-process.js';
import { uniquePrefix } from '../helpers/redis.js';
import { simEnv, startTestSim } from '../helpers/sim.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';

const BOT = 'bot-sync-outage';
const ROWS = 120;
const COLUMNS = [
  'MLSNumber',
  'Url',
  'SaleType',
  'Status',
  'CurrencySymbol',
  'PropertyType',
  'Bedrooms',
  'Bathrooms',
  'YearBuilt',
  'DaysOnMarket',
  'LotArea',
  'BuildingArea',
  'AreaUnit',
  'ParkingSpots',
  'SalePrice',
  'RentPrice',
  'DepositFee',
  'Address',
  'City',
  'State',
  'ZIP',
  'Latitude',
  'Longitude',
  'Description',
  'Images',
] as const;

let redis: RedisProcess | undefined;
let sim: RunningSimulator | undefined;
let sync: CliProcess | undefined;
let dir: string | undefined;

afterEach(async () => {
  await sync?.kill();
  sync = undefined;
  await sim?.close();
  sim = undefined;
  await redis?.close(); // its own directory: nothing to clean under a prefix
  redis = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function cell(listing: ListingWrite, column: (typeof COLUMNS)[number]): string {
  const value = listing[column];
  const text = Array.isArray(value) ? value.join('|') : value === undefined ? '' : String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A native-profile CSV feed of listings 0..rows-1 for BOT. */
function writeFeed(rows: number): string {
  dir = mkdtempSync(join(tmpdir(), 'ls-sync-outage-'));
  const path = join(dir, 'feed.csv');
  const listings = Array.from({ length: rows }, (_, i) => sampleListing(i, { SerialNumber: BOT }));
  writeFileSync(
    path,
    `${COLUMNS.join(',')}\n${listings.map((listing) => COLUMNS.map((column) => cell(listing, column)).join(',')).join('\n')}\n`,
  );
  return path;
}

async function until(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Summary {
  plan: { create: number; update: number; delete: number };
  result?: { created: number; failed: number };
}

const HAS_REDIS_SERVER = hasRedisServer();

describe.skipIf(!HAS_REDIS_SERVER)(
  `sync --work through a Redis restart${HAS_REDIS_SERVER ? '' : ' (skipped: no redis-server on PATH)'}`,
  () => {
    for (const how of ['shutdown', 'kill'] as const) {
      it(`Redis ${how === 'shutdown' ? 'shut down cleanly' : 'SIGKILLed'} and restarted mid-run: finishes by itself, converged, exit 0`, async () => {
        redis = await startRedisProcess();
        const server = redis;
        sim = await startTestSim({ chatbots: [BOT], faults: { latencyMs: 40 } });
        const s = sim;
        const feed = writeFeed(ROWS);
        const env = {
          ...simEnv(s),
          REDIS_URL: server.url,
          LISTING_SYNC_PREFIX: uniquePrefix('sync-outage'),
          LISTING_SYNC_CONCURRENCY: '4',
          LISTING_SYNC_BACKOFF_MS: '5',
          LISTING_SYNC_BACKOFF_MAX_MS: '50',
          LOG_LEVEL: 'warn',
        };
        sync = startCli(['sync', '--chatbot', BOT, '--feed', feed, '--work', '--json'], env);

        await until(() => s.state.listings(BOT).length >= 20);
        await (how === 'shutdown' ? server.shutdown() : server.kill());
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect(s.state.listings(BOT).length).toBeLessThan(ROWS);
        await server.start();

        // Usually seconds after Redis is back. Up to lock duration + stall check (30 s + 15 s, the
        // defaults) when the restart fell between a BullMQ command and its reply: ioredis sends the
        // command again after the reconnect, and the job the first one fetched waits for its lock to
        // expire before another worker takes it (BullMQ's stalled-job recovery).
        const code = await sync.exited(60_000);
        const stderr = sync.stderr();
        expect(code, stderr).toBe(0);
        const summary = jsonOf<Summary>({ code: 0, stdout: sync.stdout(), stderr });
        expect(summary.result).toMatchObject({ created: ROWS, failed: 0 });

        expect(stderr).not.toContain('Connection is closed');
        expect(stackTraceLines(stderr), stderr).toEqual([]);
        expect(linesSaying(stderr, /is not answering/).length, stderr).toBeLessThanOrEqual(2);
        // The outage, maybe one line about locks lost in it, maybe one about a run waiting on such a lock.
        expect(linesSaying(stderr, /./).length, stderr).toBeLessThanOrEqual(5);
        await expectConverged(s, BOT, ROWS, feed, env);
      }, 90_000);
    }

    it('Redis down when sync --work starts: one line saying so, exit 1, nothing sent', async () => {
      redis = await startRedisProcess();
      await redis.shutdown();
      sim = await startTestSim({ chatbots: [BOT] });
      const run = await runCli(['sync', '--chatbot', BOT, '--feed', writeFeed(3), '--work'], {
        ...simEnv(sim),
        REDIS_URL: redis.url,
        LISTING_SYNC_PREFIX: uniquePrefix('sync-down'),
      });
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      // The line names where it looked (host:port, no password) and the setting to fix.
      expect(run.stderr).toContain(`cannot reach Redis at 127.0.0.1:${redis.port} (`);
      expect(run.stderr).toMatch(/cannot reach Redis at \S+ \(.*ECONNREFUSED.*\): check REDIS_URL and that Redis is running/);
      expect(sim.state.writeCalls()).toBe(0);
    }, 30_000);
  },
);
