/**
 * What an end-to-end sync test needs around the CLI: a simulator, a Redis prefix of its own, a
 * temporary directory and the env pointing the CLI at them, all released after each test (the
 * prefix kept when the test failed, to look at); and sample listings written as a native CSV.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, inject } from 'vitest';
import type { ListingWrite } from '../../src/domain/listing.js';
import type { RunningSimulator, SimOptions } from '../../src/sim/server.js';
import { cleanPrefix, uniquePrefix } from './redis.js';
import { cliEnv, startTestSim } from './sim.js';

export interface SyncBench {
  readonly sim: RunningSimulator;
  /** The CLI's env: the simulator's URL and keys, Redis with this test's prefix, short backoff, LOG_LEVEL warn. */
  readonly env: Record<string, string>;
  readonly dir: string;
}

/** Registers the clean-up in the calling test file; `open` starts one test's bench. */
export function useSyncBench(name: string): { open(options?: SimOptions): Promise<SyncBench> } {
  const redisUrl = inject('redisUrl');
  let current: { sim: RunningSimulator; prefix: string; dir: string } | undefined;
  afterEach(async (ctx) => {
    if (current === undefined) return;
    const { sim, prefix, dir } = current;
    current = undefined;
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
    if ((ctx.task.result?.errors ?? []).length === 0) await cleanPrefix(redisUrl, prefix);
  });
  return {
    async open(options = {}) {
      const prefix = uniquePrefix(name);
      const sim = await startTestSim(options);
      const dir = mkdtempSync(join(tmpdir(), `${name}-`));
      current = { sim, prefix, dir };
      return { sim, env: cliEnv(sim, redisUrl, prefix), dir };
    },
  };
}

/** The native columns of fixtures/sync/listings-0-8.csv. */
export const NATIVE_COLUMNS = [
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

const cell = (value: unknown): string => (value === undefined ? '' : Array.isArray(value) ? value.join('|') : String(value));

/** A listing as one native CSV row, unquoted (a test may break it on purpose). */
export const nativeCsvRow = (listing: ListingWrite): string => NATIVE_COLUMNS.map((column) => cell(listing[column])).join(',');

/** Writes a native CSV of these rows (each from nativeCsvRow, or broken by the test) to `dir/name`. */
export function writeNativeCsv(dir: string, name: string, rows: readonly string[], finalNewline = true): string {
  const path = join(dir, name);
  writeFileSync(path, `${[NATIVE_COLUMNS.join(','), ...rows].join('\n')}${finalNewline ? '\n' : ''}`);
  return path;
}
