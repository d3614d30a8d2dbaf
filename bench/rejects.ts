/**
 * `npm run bench:rejects` (after `npm run build`): a feed of N rows (default 1,000,000) that all
 * fail validation, synced by the built CLI against the service simulator and Redis, `--dry-run`
 * and then a plain sync (refused by the rejected-share guard). Prints each run's peak RSS (VmHWM
 * from /proc) and the rejected rows it left in Redis. The target (issue 48): within 256 MiB, and
 * at most 1,000 rows kept (src/sync/rejected-rows.ts MAX_REJECTED_KEPT) however many failed.
 *
 * Needs Redis at REDIS_URL (default redis://127.0.0.1:6379); its prefix is removed at the end.
 * Usage: node dist/bench/rejects.js [--rows N]
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { startSimulator } from '../src/sim/server.js';
import { runCli } from './cli-child.js';
import { cleanPrefix } from './sync-redis-stats.js';

const TARGET_MIB = 256;
const CHATBOT = 'bench-rejects';
const HEADER =
  'MLSNumber,Url,SaleType,Status,CurrencySymbol,PropertyType,Bedrooms,Bathrooms,YearBuilt,DaysOnMarket,LotArea,BuildingArea,AreaUnit,ParkingSpots\n';

/** N rows, each with its own key and a Bedrooms that is not a number: every one is rejected. */
async function writeBadFeed(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  out.write(HEADER);
  let chunk = '';
  for (let i = 0; i < rows; i++) {
    chunk += `ML${i},https://homes.example/${i},for_sale,Active,$,Condo,three-${i},1,1990,3,0,800,Square Feet,1\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--rows');
  const rows = at >= 0 ? Number(process.argv[at + 1]) : 1_000_000;
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `bench-rejects-${randomBytes(4).toString('hex')}`;
  const dir = mkdtempSync(join(tmpdir(), 'bench-rejects-'));
  const sim = await startSimulator({ chatbots: [CHATBOT] });
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const feed = join(dir, 'all-bad.csv');
    await writeBadFeed(feed, rows);
    const env = {
      PATH: process.env.PATH,
      API_BASE_URL: sim.baseUrl,
      SITE_URL: sim.siteUrl,
      API_SECRET_KEY: sim.credentials.secretKey,
      API_SESSION_KEY: sim.credentials.sessionKey,
      PROJECT_AUTH_TOKEN: sim.credentials.projectAuthToken,
      REDIS_URL: redisUrl,
      LISTING_SYNC_PREFIX: prefix,
      LOG_LEVEL: 'warn',
    };
    console.log(`bench:rejects — ${rows.toLocaleString('en-US')} rows, every one rejected (Bedrooms not a number)`);
    let worst = 0;
    for (const [label, extra] of [
      ['sync --dry-run', ['--dry-run']],
      ['sync (refused by the guard)', []],
    ] as const) {
      const run = await runCli(['sync', '--chatbot', CHATBOT, '--feed', feed, '--json', ...extra], env);
      const summary = JSON.parse(run.stdout || '{}') as { runId?: string; feed?: { rejected?: number } };
      let kept = '-';
      if (summary.runId !== undefined) {
        const keys: string[] = [];
        for await (const found of redis.scanStream({ match: `${prefix}*rejected*`, count: 1000 })) keys.push(...(found as string[]));
        const lengths = await Promise.all(keys.map((key) => redis.llen(key)));
        kept = String(lengths.reduce((sum, n) => sum + n, 0));
      }
      worst = Math.max(worst, run.peakRssMiB);
      console.log(
        `  ${label}: exit ${run.code}, ${summary.feed?.rejected ?? '?'} rejected, peak RSS ${run.peakRssMiB.toFixed(0)} MiB, ` +
          `${run.seconds.toFixed(1)} s, rejected rows kept in Redis: ${kept}`,
      );
    }
    console.log(`peak RSS ${worst.toFixed(0)} MiB (target ≤ ${TARGET_MIB} MiB): ${worst <= TARGET_MIB ? 'PASS' : 'FAIL'}`);
    if (worst > TARGET_MIB) process.exitCode = 1;
  } finally {
    await cleanPrefix(redis, prefix);
    redis.disconnect();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
