/**
 * A feed that changed shape overnight, through the built CLI against the simulator, on a Redfin
 * export (the real one in `../shared/data` when beside the clone, else a fixture of its shape:
 * test/helpers/redfin-export.ts) synced first: PRICE renamed to LIST PRICE,
 * PRICE dropped, BEDS empty on every row. Each is refused (exit 3, the column and the field it
 * fills named, a refused run on record) with zero write calls; with --accept-shape the writes
 * happen, the run records the acceptance, and the next run of that shape goes through untouched.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simScenePerTest } from '../helpers/feed-scenario.js';
import { redfinExport } from '../helpers/redfin-export.js';
import { jsonOf, runCli, type CliRun } from '../helpers/run-cli.js';

const BOT = 'bot-shape';
const EXPORT = redfinExport();

interface Summary {
  runId: string;
  plan: { create: number; update: number; delete: number; unchanged: number };
  guard: { ok: boolean; reasons: string[]; forced: boolean };
  shape?: { stage: string; accepted: boolean; drift: Array<{ kind: string; column: string; fields: string[]; lookalike?: string }> };
  result?: { created: number; updated: number; deleted: number; failed: number };
}

const scenes = simScenePerTest('sync-shape');

/** A CSV line's cells as written (quotes kept), so joining them with ',' gives the line back. */
function rawCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    if (char === ',' && !quoted) {
      cells.push(cell);
      cell = '';
    } else cell += char;
  }
  return [...cells, cell];
}

/** The export with `edit` applied to each row's cells (the header is row 0). */
function edited(edit: (cells: string[], row: number) => string[]): string {
  const lines = readFileSync(EXPORT, 'utf8')
    .split(/\r?\n/)
    .filter((line) => line !== '');
  return `${lines.map((line, row) => edit(rawCells(line), row).join(',')).join('\n')}\n`;
}

const header = readFileSync(EXPORT, 'utf8').split('\n')[0]?.split(',') ?? [];
const PRICE = header.indexOf('PRICE');
const BEDS = header.indexOf('BEDS');

const VARIANTS = [
  {
    name: 'PRICE renamed to LIST PRICE',
    text: () => edited((cells, row) => (row === 0 ? cells.map((cell) => (cell === 'PRICE' ? 'LIST PRICE' : cell)) : cells)),
    refusal:
      /^the feed's shape changed: column 'PRICE' \(SalePrice\) is gone; 'LIST PRICE' is new and looks like it \(it had values on 350 of 350 rows in run run-[^)]+\)\. Fix the mapping \("columns": \{"SalePrice": "LIST PRICE"\} in a --mapping file\) or accept the new shape once with --accept-shape$/,
    drift: { kind: 'gone', column: 'PRICE', fields: ['SalePrice'], lookalike: 'LIST PRICE' },
    stage: 'header',
  },
  {
    name: 'PRICE dropped',
    text: () => edited((cells) => cells.filter((_, i) => i !== PRICE)),
    refusal: /^the feed's shape changed: column 'PRICE' \(SalePrice\) is gone; no new column looks like it .*--accept-shape$/,
    drift: { kind: 'gone', column: 'PRICE', fields: ['SalePrice'] },
    stage: 'header',
  },
  {
    name: 'BEDS empty on every row',
    text: () => edited((cells, row) => (row === 0 ? cells : cells.map((cell, i) => (i === BEDS ? '' : cell)))),
    refusal:
      /^the feed's shape changed: column 'BEDS' \(Bedrooms\) is empty on all 350 rows; it had values on \d+ of 350 rows in run .*--accept-shape$/,
    drift: { kind: 'emptied', column: 'BEDS', fields: ['Bedrooms'] },
    stage: 'rows',
  },
] as const;

describe('a feed whose shape changed (a Redfin export)', () => {
  it('is refused with the column and field named and nothing written; --accept-shape lets it through once and records it', async () => {
    const { sim: s, env, dir } = await scenes.start({ chatbots: [BOT] });
    // One path for every night: the shape is kept per (chatbot, feed path).
    const feed = join(dir, 'redfin-export.csv');
    const sync = async (...flags: string[]): Promise<CliRun & { summary: Summary }> => {
      const run = await runCli(['sync', '--chatbot', BOT, '--feed', feed, '--profile', 'redfin', '--json', ...flags], env, 60_000);
      return { ...run, summary: jsonOf<Summary>(run) };
    };

    copyFileSync(EXPORT, feed);
    const first = await sync('--work');
    expect(first.code, first.stderr).toBe(0);
    expect(first.summary.result).toMatchObject({ created: 350, failed: 0 });

    for (const variant of VARIANTS) {
      writeFileSync(feed, variant.text());
      const writesBefore = s.state.writeCalls();

      const dry = await sync('--dry-run');
      expect(dry.code, `${variant.name}: a dry run reports the refusal\n${dry.stdout}${dry.stderr}`).toBe(3);

      const refused = await sync('--work');
      expect(refused.code, `${variant.name}\n${refused.stderr}`).toBe(3);
      expect(refused.summary.guard).toMatchObject({ ok: false, forced: false });
      // The shape's reason first; a refusal after the rows were read may also carry the field-wipe
      // guard's (the same change empties a field the listings hold), never anything else.
      const [shapeReason, ...others] = refused.summary.guard.reasons;
      expect(shapeReason).toMatch(variant.refusal);
      for (const other of others) expect(other, variant.name).toMatch(/^The plan would empty /);
      if (variant.stage === 'header') expect(others, `${variant.name}: refused before a plan`).toEqual([]);
      expect(refused.summary.shape).toEqual({ stage: variant.stage, accepted: false, drift: [expect.objectContaining(variant.drift)] });
      expect(refused.summary.result, `${variant.name}: nothing was enqueued`).toBeUndefined();
      expect(s.state.writeCalls(), `${variant.name}: no write call`).toBe(writesBefore);
      const shown = await runCli(['runs', 'show', refused.summary.runId, '--json'], env);
      expect(jsonOf<{ status: string; summary: Summary }>(shown)).toMatchObject({
        status: 'refused',
        summary: { guard: { ok: false }, shape: { accepted: false } },
      });

      // --force too: the field-wipe guard (issue 27) refuses emptying a field on this many listings by
      // itself; this test is about the shape check, which --force alone never gets past (above).
      const accepted = await sync('--work', '--accept-shape', '--force');
      expect(accepted.code, `${variant.name}\n${accepted.stderr}`).toBe(0);
      // Accepted, the feed is read whole: the drift is the one the rows show.
      expect(accepted.summary.shape).toEqual({ stage: 'rows', accepted: true, drift: [expect.objectContaining(variant.drift)] });
      expect(accepted.summary.result?.updated, `${variant.name}: the writes happen`).toBeGreaterThan(300);
      expect(accepted.summary.result?.failed).toBe(0);
      expect(s.state.writeCalls()).toBeGreaterThan(writesBefore);

      const writesAfter = s.state.writeCalls();
      const next = await sync('--work');
      expect(next.code, `${variant.name}: the accepted shape is the feed's now\n${next.stderr}`).toBe(0);
      expect(next.summary.shape).toBeUndefined();
      expect(next.summary.plan).toMatchObject({ create: 0, update: 0, delete: 0, unchanged: 350 });
      expect(s.state.writeCalls()).toBe(writesAfter);

      // The vendor fixes the export: the columns come back, their values are written again.
      copyFileSync(EXPORT, feed);
      const restored = await sync('--work');
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.summary.result?.failed).toBe(0);
    }
    expect(s.state.duplicateCreates(BOT)).toEqual([]);
    expect(s.state.listings(BOT)).toHaveLength(350);
  }, 300_000);
});
