/**
 * The field-wipe guard through the built CLI, on a Redfin export (test/helpers/redfin-export.ts) synced first: a copy with
 * BEDS empty on every row (the default 0 filled in over real bedroom counts) and one with PRICE
 * empty on every row are refused (exit 3, the field, its count and examples named, no write), pass
 * with --allow-wipe or --force (recorded on the run, shown on the dashboard's run page), and an
 * ordinary night passes with exactly its writes, its dry run listing the prices it changes.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/server.js';
import { startCli, type CliProcess } from '../helpers/cli-process.js';
import { releaseScene } from '../helpers/feed-scenario.js';
import { REDFIN_EXPORT_ROWS, redfinExport } from '../helpers/redfin-export.js';
import { uniquePrefix } from '../helpers/redis.js';
import { simEnv, startTestSim } from '../helpers/sim.js';
import { jsonOf, runCli, type CliRun } from '../helpers/run-cli.js';

const redisUrl = inject('redisUrl');
const BOT = 'bot-wipe';
const EXPORT = redfinExport();
const ROWS = REDFIN_EXPORT_ROWS;

let sim: RunningSimulator | undefined;
let dashboard: CliProcess | undefined;
let prefix = '';
let dir = '';

afterEach(async (ctx) => {
  await dashboard?.kill();
  dashboard = undefined;
  await releaseScene({ sim, dir, redisUrl, prefix, passed: (ctx.task.result?.errors ?? []).length === 0 });
  sim = undefined;
  dir = '';
  prefix = '';
});

interface Sample {
  key: string;
  from?: unknown;
  to?: unknown;
  filled?: boolean;
}

interface Summary {
  runId: string;
  plan: { create: number; update: number; delete: number; unchanged: number };
  changes: Array<{ field: string; count: number; samples: Sample[] }>;
  guard: { ok: boolean; reasons: string[]; forced: boolean };
  wipes: {
    maxWipes: string;
    allowWipe: string[];
    fields: Array<{ field: string; count: number; holders: number; verdict: string; samples: Sample[] }>;
  };
  result?: { created: number; updated: number; deleted: number; failed: number };
}

/** The export as rows of cells, header first. */
function exportRows(): string[][] {
  const rows: string[][] = parse(readFileSync(EXPORT, 'utf8'));
  return rows;
}

function csvText(rows: readonly string[][]): string {
  const cell = (value: string): string => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  return `${rows.map((row) => row.map(cell).join(',')).join('\n')}\n`;
}

/** A copy of the export with `change` applied to each data row (header given to find columns). */
function variant(name: string, change: (row: string[], header: readonly string[], index: number) => string[] | undefined): string {
  const [header = [], ...rows] = exportRows();
  const kept = rows.map((row, i) => change([...row], header, i)).filter((row): row is string[] => row !== undefined);
  const path = join(dir, name);
  writeFileSync(path, csvText([header, ...kept]));
  return path;
}

const column = (header: readonly string[], name: string): number => {
  const index = header.indexOf(name);
  if (index < 0) throw new Error(`no column ${name} in the export`);
  return index;
};

const emptied = (name: string) => (row: string[], header: readonly string[]) => {
  row[column(header, name)] = '';
  return row;
};

/** A simulator holding the export (first sync, --work), and the env pointing the CLI at it. */
async function syncedExport(): Promise<{ s: RunningSimulator; env: Record<string, string> }> {
  prefix = uniquePrefix('wipe');
  dir = mkdtempSync(join(tmpdir(), 'ls-wipe-'));
  const s = await startTestSim({ chatbots: [BOT] });
  sim = s;
  const env = { ...simEnv(s), REDIS_URL: redisUrl, LISTING_SYNC_PREFIX: prefix, LOG_LEVEL: 'warn' };
  const first = await runCli(sync(EXPORT, '--work', '--json'), env, 60_000);
  expect(first.code, first.stderr).toBe(0);
  expect(jsonOf<Summary>(first).result).toMatchObject({ created: ROWS, failed: 0 });
  s.state.resetCounters();
  return { s, env };
}

function sync(feed: string, ...flags: string[]): string[] {
  return ['sync', '--chatbot', BOT, '--feed', feed, '--profile', 'redfin', ...flags];
}

/** A wipe refusal: exit 3, one reason naming the field, its count, three samples and the overrides; nothing sent. */
function expectWipeRefused(run: CliRun, s: RunningSimulator, field: string, sample: RegExp): Summary {
  expect(run.code, run.stderr).toBe(3);
  const summary = jsonOf<Summary>(run);
  expect(summary.guard).toMatchObject({ ok: false, forced: false });
  expect(summary.guard.reasons).toHaveLength(1);
  const [reason = ''] = summary.guard.reasons;
  expect(reason).toMatch(new RegExp(`^The plan would empty ${field} on \\d+ listings of the \\d+ that hold it`));
  expect(reason).toContain(`rerun with --allow-wipe ${field} or --force`);
  const wipe = summary.wipes.fields.find((found) => found.field === field);
  expect(wipe?.verdict).toBe('refused');
  expect(reason).toContain(`on ${wipe?.count} listings of the ${wipe?.holders} that hold it`);
  expect(wipe?.samples).toHaveLength(3);
  for (const example of wipe?.samples ?? []) expect(reason).toContain(`${example.key} `);
  expect(reason.match(sample)).toHaveLength(3);
  expect(s.state.writeCalls()).toBe(0);
  expect(s.state.listings(BOT)).toHaveLength(ROWS);
  return summary;
}

async function shownRun(env: Record<string, string>, runId: string): Promise<{ status: string; summary: Summary }> {
  const shown = await runCli(['runs', 'show', runId, '--json'], env);
  expect(shown.code, shown.stderr).toBe(0);
  return jsonOf<{ status: string; summary: Summary }>(shown);
}

describe('the wipe guard on the Redfin export', () => {
  it('refuses BEDS empty on every row (the default 0 over real counts), then --allow-wipe Bedrooms writes it and is recorded', async () => {
    const { s, env } = await syncedExport();
    const noBeds = variant('no-beds.csv', emptied('BEDS'));
    const refused = await runCli(sync(noBeds, '--work', '--json'), env, 60_000);
    const summary = expectWipeRefused(refused, s, 'Bedrooms', /\d+ \d+ → 0 \(default\)/g);
    const wipe = summary.wipes.fields[0];
    // Every listing with a real bedroom count would get the default 0: well over 10% of the holders.
    expect(wipe?.count).toBeGreaterThan(ROWS * 0.9);
    expect(wipe?.samples.every((example) => example.filled === true && example.to === 0 && Number(example.from) > 0)).toBe(true);
    expect(await shownRun(env, summary.runId)).toMatchObject({
      status: 'refused',
      summary: { wipes: { fields: [{ field: 'Bedrooms' }] } },
    });

    // The run page shows the field, its count, its verdict and the examples.
    dashboard = startCli(['dashboard', '--insecure-local', '--port', '0'], env);
    await dashboard.waitFor(/listening on (http:\/\/\S+)\//);
    const base = /listening on (http:\/\/\S+?)\/ /.exec(dashboard.stdout())?.[1] ?? '';
    const page = await (await fetch(`${base}/runs/${summary.runId}`)).text();
    expect(page).toMatch(
      new RegExp(
        `<td>Bedrooms</td><td class="num">${wipe?.count}</td><td class="num">${wipe?.holders}</td><td><span class="bad">refused</span>`,
      ),
    );
    expect(page).toContain(`${wipe?.samples[0]?.key} ${String(wipe?.samples[0]?.from)} → 0 (default)`);

    const allowed = await runCli(sync(noBeds, '--allow-wipe', 'Bedrooms', '--work', '--json'), env, 60_000);
    expect(allowed.code, allowed.stderr).toBe(0);
    const done = jsonOf<Summary>(allowed);
    expect(done.guard).toEqual({ ok: true, reasons: [], forced: false });
    expect(done.result).toMatchObject({ updated: wipe?.count, failed: 0 });
    expect(s.state.callCounts().updateListing).toBe(wipe?.count);
    expect(s.state.listings(BOT).every((listing) => listing.Bedrooms === 0)).toBe(true);
    const recorded = await shownRun(env, done.runId);
    expect(recorded.summary.wipes).toMatchObject({ allowWipe: ['Bedrooms'], fields: [{ field: 'Bedrooms', verdict: 'allowed' }] });
    expect(s.state.duplicateCreates(BOT)).toEqual([]);
  });

  it('refuses PRICE empty on every row, then --force writes it and the run records that it was forced', async () => {
    const { s, env } = await syncedExport();
    const noPrice = variant('no-price.csv', emptied('PRICE'));
    const refused = await runCli(sync(noPrice, '--work', '--json'), env, 60_000);
    const summary = expectWipeRefused(refused, s, 'SalePrice', /\d+ \d+ → \(empty\)/g);
    expect(summary.wipes.fields[0]).toMatchObject({ count: ROWS, holders: ROWS });

    // The text summary says the same to a person, with its examples.
    const text = await runCli(sync(noPrice, '--dry-run'), env, 60_000);
    expect(text.code).toBe(3);
    expect(text.stdout).toContain(
      `The plan would empty SalePrice on ${ROWS} listings of the ${ROWS} that hold it (100%), more than --max-wipes 10% (35), e.g.`,
    );
    expect(text.stdout).toContain(`wipes   SalePrice: emptied on ${ROWS} of the ${ROWS} listings that hold it, REFUSED`);
    expect(s.state.writeCalls()).toBe(0);

    const forced = await runCli(sync(noPrice, '--force', '--work', '--json'), env, 60_000);
    expect(forced.code, forced.stderr).toBe(0);
    const done = jsonOf<Summary>(forced);
    expect(done.guard).toMatchObject({ ok: true, forced: true });
    expect(done.result).toMatchObject({ updated: ROWS, failed: 0 });
    expect(s.state.listings(BOT).filter((listing) => listing.SalePrice !== undefined)).toEqual([]);
    const recorded = await shownRun(env, done.runId);
    expect(recorded.summary.guard.forced).toBe(true);
    expect(recorded.summary.wipes.fields).toMatchObject([{ field: 'SalePrice', verdict: 'refused' }]);
  });

  it('passes an ordinary night (10 prices changed, 3 rows gone, 2 new) with exactly those writes; its dry run lists SalePrice: 10 with samples', async () => {
    const { s, env } = await syncedExport();
    const night = variant('night.csv', (row, header, i) => {
      if (i < 3) return undefined;
      if (i >= 10 && i < 20) row[column(header, 'PRICE')] = String(Number(row[column(header, 'PRICE')]) + 5000);
      return row;
    });
    const [header = [], ...rows] = exportRows();
    const fresh = rows.slice(30, 32).map((row, i) => {
      const copy = [...row];
      copy[column(header, 'MLS#')] = `NEW${i}`;
      const url = header.findIndex((name) => name.startsWith('URL'));
      copy[url] = `https://www.redfin.com/IL/Chicago/new-${i}/home/${i}`;
      return copy;
    });
    writeFileSync(night, readFileSync(night, 'utf8') + csvText(fresh));

    const report = join(dir, 'night.csv.report.csv');
    const dry = await runCli(sync(night, '--dry-run', '--report', report), env, 60_000);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^plan {4}create 2, update 10, delete 3, unchanged 337$/m);
    const changed = rows.slice(10, 20);
    const priceLine = dry.stdout.split('\n').find((line) => line.startsWith('changes SalePrice: 10 listings, e.g. '));
    expect(priceLine, dry.stdout).toBeDefined();
    const keys = changed.map((row) => row[column(header, 'MLS#')] ?? '').sort();
    const price = (key: string): number => Number(changed.find((row) => row[column(header, 'MLS#')] === key)?.[column(header, 'PRICE')]);
    for (const key of keys.slice(0, 3)) expect(priceLine).toContain(`${key} ${price(key)} → ${price(key) + 5000}`);
    expect(dry.stdout).not.toMatch(/^wipes/m);
    // The CSV report shows each update's before → after.
    const csv = readFileSync(report, 'utf8').split('\r\n');
    for (const key of keys) expect(csv).toContain(`update,${key},MLSNumber,SalePrice,${price(key)},${price(key) + 5000},,`);
    expect(s.state.writeCalls()).toBe(0);

    const run = await runCli(sync(night, '--work', '--json'), env, 60_000);
    expect(run.code, run.stderr).toBe(0);
    const summary = jsonOf<Summary>(run);
    expect(summary.changes).toMatchObject([{ field: 'SalePrice', count: 10 }]);
    expect(summary.wipes.fields).toEqual([]);
    expect(summary.result).toMatchObject({ created: 2, updated: 10, deleted: 3, failed: 0 });
    expect(s.state.callCounts()).toMatchObject({ createListing: 2, updateListing: 10 });
    expect(s.state.listings(BOT)).toHaveLength(ROWS - 3 + 2);
    expect(s.state.duplicateCreates(BOT)).toEqual([]);
  });
});
