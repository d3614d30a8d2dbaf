/**
 * A change in a field the service never reads back (AreaUnit: the read shape has no such member)
 * as a user sees it: `sync` names the field, in the text summary, in `--json` and in the
 * `--report` CSV (a row per listing and field, the old value "unknown (not read back)"), never a
 * hash; a ledger entry from before per-field hashes says once that which field is unknown. The
 * built CLI as a process, against the simulator, with real Redis.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, expect, inject, it } from 'vitest';
import { storeKeys } from '../../src/store/keys.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { simEnv, startTestSim } from '../helpers/sim.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';

const redisUrl = inject('redisUrl');
const BOT = 'bot-unread';
const HEADER =
  'MLSNumber,Url,SaleType,Status,CurrencySymbol,PropertyType,Bedrooms,Bathrooms,YearBuilt,DaysOnMarket,LotArea,BuildingArea,AreaUnit,ParkingSpots,SalePrice,Address,City,State,ZIP';

let sim: RunningSimulator | undefined;
let prefix = '';
let dir = '';

afterEach(async (ctx) => {
  await sim?.close();
  sim = undefined;
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
  dir = '';
  if (prefix !== '' && (ctx.task.result?.errors ?? []).length === 0) await cleanPrefix(redisUrl, prefix);
  prefix = '';
});

/** A feed of listings ML1..ML3 with the AreaUnit of each. */
function feed(units: readonly string[]): string {
  const rows = units.map(
    (unit, i) =>
      `ML${i + 1},https://example.test/l/${i + 1},for_sale,Active,$,Condo,2,1,1990,3,2000,800,${unit},1,${300_000 + i},${i + 1} Main St,Springfield,CA,90000`,
  );
  return `${HEADER}\n${rows.join('\n')}\n`;
}

interface Summary {
  plan: { create: number; update: number; unchanged: number };
  changes?: Array<{ field: string; count: number; notReadBack?: boolean; samples: Array<{ key: string; to?: unknown }> }>;
}

it('names the field the read never shows, with its new value, in the summary, --json and the --report CSV', async () => {
  prefix = uniquePrefix('not-read-back');
  sim = await startTestSim({ chatbots: [BOT] });
  dir = mkdtempSync(join(tmpdir(), 'ls-unread-'));
  const env = { ...simEnv(sim), REDIS_URL: redisUrl, LISTING_SYNC_PREFIX: prefix, LOG_LEVEL: 'warn' };
  const path = join(dir, 'feed.csv');
  const sync = (...extra: string[]): string[] => ['sync', '--chatbot', BOT, '--feed', path, ...extra];

  writeFileSync(path, feed(['Square Feet', 'Square Feet', 'Square Feet']));
  const first = await runCli(sync('--work', '--json'), env, 60_000);
  expect(first.code, first.stderr).toBe(0);
  expect(jsonOf<Summary>(first).plan.create).toBe(3);

  writeFileSync(path, feed(['Square Meters', 'Square Meters', 'Square Feet']));
  const report = join(dir, 'report.csv');
  const text = await runCli(sync('--dry-run', '--report', report), env, 60_000);
  expect(text.code, text.stderr).toBe(0);
  expect(text.stdout).toContain('plan    create 0, update 2, delete 0, unchanged 1');
  expect(text.stdout).toContain(
    'AreaUnit 2 (not read back by the service; compared with what this tool last sent), e.g. AreaUnit: ML1 now Square Meters',
  );
  // No content hash, nor a piece of one, stands in for a value.
  expect(text.stdout).not.toMatch(/[0-9a-f]{12}/);
  expect(text.stdout).not.toContain('hidden fields');

  const csv = readFileSync(report, 'utf8').split('\r\n');
  const updates = csv.filter((line) => line.startsWith('update,'));
  expect(updates).toEqual([
    'update,ML1,MLSNumber,AreaUnit,old value unknown (not read back),Square Meters,,not read back by the service; compared with what this tool last sent',
    'update,ML2,MLSNumber,AreaUnit,old value unknown (not read back),Square Meters,,not read back by the service; compared with what this tool last sent',
  ]);

  const json = await runCli(sync('--dry-run', '--json'), env, 60_000);
  expect(json.code, json.stderr).toBe(0);
  expect(jsonOf<Summary>(json).changes).toEqual([
    {
      field: 'AreaUnit',
      count: 2,
      notReadBack: true,
      samples: [
        { key: 'ML1', to: 'Square Meters', notReadBack: true },
        { key: 'ML2', to: 'Square Meters', notReadBack: true },
      ],
    },
  ]);

  // Written, the new values are what the ledger compares with: the next run has nothing to do.
  const work = await runCli(sync('--work', '--json'), env, 60_000);
  expect(work.code, work.stderr).toBe(0);
  const again = await runCli(sync('--dry-run', '--json'), env, 60_000);
  expect(jsonOf<Summary>(again).plan).toMatchObject({ update: 0, unchanged: 3 });
}, 120_000);

it('says once that the field is unknown for ledger entries written before per-field hashes, then names fields again', async () => {
  prefix = uniquePrefix('not-read-back-old');
  sim = await startTestSim({ chatbots: [BOT] });
  dir = mkdtempSync(join(tmpdir(), 'ls-unread-'));
  const env = { ...simEnv(sim), REDIS_URL: redisUrl, LISTING_SYNC_PREFIX: prefix, LOG_LEVEL: 'warn' };
  const path = join(dir, 'feed.csv');
  const sync = (...extra: string[]): string[] => ['sync', '--chatbot', BOT, '--feed', path, ...extra];
  writeFileSync(path, feed(['Square Feet', 'Square Feet', 'Square Feet']));
  expect((await runCli(sync('--work', '--json'), env, 60_000)).code).toBe(0);

  // The ledger as an older version wrote it: `runId \t writtenAt \t hash \t remoteId`, the hash alone.
  const redis = new Redis(redisUrl);
  try {
    const ledgerKey = storeKeys(prefix).ledger(BOT, 'MLSNumber');
    const entries = await redis.hgetall(ledgerKey);
    expect(Object.keys(entries)).toHaveLength(3);
    for (const [key, entry] of Object.entries(entries)) {
      const [runId, writtenAt, hash, remoteId] = entry.split('\t');
      expect(hash).toContain('.');
      await redis.hset(ledgerKey, key, [runId, writtenAt, hash?.split('.')[0], remoteId].join('\t'));
    }
  } finally {
    redis.disconnect();
  }

  writeFileSync(path, feed(['Square Meters', 'Square Feet', 'Square Feet']));
  const old = await runCli(sync('--work'), env, 60_000);
  expect(old.code, old.stderr).toBe(0);
  expect(old.stdout).toContain(
    '1 listing changed in fields the service does not read back; which ones is unknown (their ledger entries predate per-field hashes',
  );
  writeFileSync(path, feed(['Square Feet', 'Square Feet', 'Square Feet']));
  const named = await runCli(sync('--dry-run'), env, 60_000);
  expect(named.stdout).toContain(
    'AreaUnit 1 (not read back by the service; compared with what this tool last sent), e.g. AreaUnit: ML1 now Square Feet',
  );
}, 120_000);
