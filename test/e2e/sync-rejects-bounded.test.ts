/**
 * A feed whose 5,000 rows all fail validation, synced by the built CLI against the simulator and
 * Redis: the run record keeps the first 1,000 rejected rows in full and counts every one by field
 * and reason (in --json and the stored summary), while --report still lists all 5,000.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, inject, it } from 'vitest';
import { jsonOf, runCli } from '../helpers/run-cli.js';
import { useSyncBench } from '../helpers/sync-bench.js';

const BOT = 'bot-rejects-bounded';
const bench = useSyncBench('sync-rejects-bounded');
const redisUrl = inject('redisUrl');
const HEADER =
  'MLSNumber,Url,SaleType,Status,CurrencySymbol,PropertyType,Bedrooms,Bathrooms,YearBuilt,DaysOnMarket,LotArea,BuildingArea,AreaUnit,ParkingSpots';

interface Summary {
  runId: string;
  feed: { rows: number; rejected: number; rejectedBy?: Array<{ field: string; reason: string; count: number }> };
  guard: { ok: boolean };
}

/** Rows 0..n-1: even ones have a Bedrooms that is not a number, odd ones a javascript: Url. */
function badFeed(dir: string, n: number): string {
  const rows = Array.from({ length: n }, (_, i) =>
    i % 2 === 0
      ? `ML${i},https://homes.example/${i},for_sale,Active,$,Condo,three-${i},1,1990,3,0,800,Square Feet,1`
      : `ML${i},javascript:alert(${i}),for_sale,Active,$,Condo,2,1,1990,3,0,800,Square Feet,1`,
  );
  const path = join(dir, 'all-bad.csv');
  writeFileSync(path, `${[HEADER, ...rows].join('\n')}\n`);
  return path;
}

async function storedRun(prefix: string, runId: string): Promise<{ kept: number; rejectedCount: string | undefined; summary: Summary }> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const keys: string[] = [];
    for await (const found of redis.scanStream({ match: `${prefix}*`, count: 1000 })) keys.push(...(found as string[]));
    const rejectedKey = keys.find((key) => key.includes('rejected') && key.includes(runId));
    const runKey = keys.find((key) => key.endsWith(runId) && !key.includes('rejected'));
    const kept = rejectedKey === undefined ? 0 : await redis.llen(rejectedKey);
    const hash = runKey === undefined ? {} : await redis.hgetall(runKey);
    return { kept, rejectedCount: hash.rejectedCount, summary: JSON.parse(hash.summary ?? '{}') as Summary };
  } finally {
    redis.disconnect();
  }
}

describe('rejected rows are bounded', () => {
  it('5,000 bad rows: 1,000 kept in Redis, all counted by field and reason, all in --report', async () => {
    const { env, dir, sim } = await bench.open({ chatbots: [BOT] });
    const feed = badFeed(dir, 5000);
    const report = join(dir, 'report.csv');
    const run = await runCli(['sync', '--chatbot', BOT, '--feed', feed, '--json', '--report', report], env, 60_000);
    expect(run.code, run.stderr).toBe(3);
    const summary = jsonOf<Summary>(run);
    expect(summary.guard.ok).toBe(false);
    expect(summary.feed).toMatchObject({ rows: 5000, rejected: 5000 });
    const counts = [
      { field: 'Bedrooms', reason: "Bedrooms: expected a number, got '…'", count: 2500 },
      { field: 'Url', reason: "Url: expected an http:// or https:// URL, got '…'", count: 2500 },
    ];
    expect(summary.feed.rejectedBy).toEqual(counts);

    const stored = await storedRun(env.LISTING_SYNC_PREFIX as string, summary.runId);
    expect(stored.kept).toBe(1000);
    expect(stored.rejectedCount).toBe('5000');
    expect(stored.summary.feed.rejectedBy).toEqual(counts);

    const lines = readFileSync(report, 'utf8')
      .split('\r\n')
      .filter((line) => line.startsWith('rejected,'));
    expect(lines).toHaveLength(5000);
    expect(lines[4999]).toContain('ML4999');
    expect(sim.state.writeCalls()).toBe(0);

    const shown = await runCli(['sync', '--chatbot', BOT, '--feed', feed, '--dry-run'], env, 60_000);
    expect(shown.stdout).toContain('… and 4,990 more rejected rows (see --report)');
    expect(shown.stdout).toContain("2,500 × Bedrooms: expected a number, got '…'");
  }, 90_000);
});
