/**
 * The sync's feed-shape check (src/sync/feed-shape-check.ts) over records held in a Map: a first
 * run has nothing to compare with, --accept-shape turns a refusal into a recorded acceptance, an
 * incremental pull is never compared, and the guard's verdict takes the check's refusal.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FeedShape, RecordedShape } from '../../src/domain/feed-shape.js';
import { guardWithShape, shapeSourceId, startShapeCheck, type FeedShapeRecords } from '../../src/sync/feed-shape-check.js';
import type { SyncRequest } from '../../src/sync/sync-request.js';

function records(): FeedShapeRecords & { kept: Map<string, RecordedShape> } {
  const kept = new Map<string, RecordedShape>();
  return {
    kept,
    read: (chatbot, sourceId) => Promise.resolve(kept.get(`${chatbot}/${sourceId}`)),
    write: (chatbot, sourceId, shape) => {
      kept.set(`${chatbot}/${sourceId}`, shape);
      return Promise.resolve();
    },
  };
}

const request = (extra: Partial<SyncRequest> = {}): SyncRequest => ({
  chatbot: 'bot-1',
  feed: { source: '/feeds/acme.csv', profile: 'redfin' },
  keyType: 'MLSNumber',
  mode: 'mirror',
  deleteScope: 'managed',
  maxDeletes: '10%',
  maxRejectedPercent: 5,
  force: false,
  dryRun: false,
  ...extra,
});

const shape = (priceRows: number, columns = ['MLS#', 'PRICE']): FeedShape => ({
  format: 'csv',
  columns,
  reads: [
    { column: 'MLS#', fields: ['MLSNumber'], rows: 10 },
    ...(columns.includes('PRICE') ? [{ column: 'PRICE', fields: ['SalePrice'], rows: priceRows }] : []),
  ],
  fields: { MLSNumber: 10, SalePrice: priceRows },
  rows: 10,
});

describe('the feed-shape check of a sync', () => {
  it('records on a first run, then refuses what the next run lost, naming the flag that accepts it', async () => {
    const store = records();
    const first = await startShapeCheck(store, request(), false);
    expect(first.atHeader({ format: 'csv', columns: ['MLS#', 'PRICE'], reads: shape(10).reads })).toBeUndefined();
    expect(first.afterRead(shape(10))).toBeUndefined();
    await first.record('run-1', '2026-11-26T02:00:00.000Z', shape(10));
    expect(store.kept.get(`bot-1/${shapeSourceId(request())}`)).toMatchObject({ runId: 'run-1', source: '/feeds/acme.csv', rows: 10 });

    const next = await startShapeCheck(store, request(), false);
    const gone = next.atHeader({ format: 'csv', columns: ['MLS#'], reads: shape(0, ['MLS#']).reads });
    expect(gone?.summary).toMatchObject({ stage: 'header', accepted: false, drift: [{ kind: 'gone', column: 'PRICE' }] });
    expect(gone?.reasons).toEqual([expect.stringContaining('--accept-shape')]);
    const emptied = next.afterRead(shape(0));
    expect(emptied?.summary).toMatchObject({ stage: 'rows', accepted: false, drift: [{ kind: 'emptied', column: 'PRICE' }] });
    const verdict = guardWithShape({ ok: true, forced: true, reasons: ['would delete …, --force'], wipes: [] }, emptied);
    expect(verdict).toEqual({ ok: false, forced: false, reasons: [...(emptied?.reasons ?? []), 'would delete …, --force'], wipes: [] });
  });

  it('lets an accepted shape through with the drift on record and no refusal', async () => {
    const store = records();
    await (await startShapeCheck(store, request(), false)).record('run-1', '2026-11-26T02:00:00.000Z', shape(10));
    const accepting = await startShapeCheck(store, request({ acceptShape: true }), false);
    const found = accepting.afterRead(shape(0));
    expect(found).toMatchObject({ summary: { accepted: true, drift: [{ kind: 'emptied' }] }, reasons: [] });
    expect(guardWithShape({ ok: true, forced: false, reasons: [], wipes: [] }, found)).toEqual({
      ok: true,
      forced: false,
      reasons: [],
      wipes: [],
    });
  });

  it('never compares an incremental pull (what it lacks did not change), and a JSON header is not the whole feed', async () => {
    const store = records();
    const replicated = request({
      feed: { source: 'https://mls.example/odata/Property', profile: 'reso' },
      replicate: { sweep: false, overlapMs: 0 },
    });
    await (await startShapeCheck(store, replicated, false)).record('run-1', '2026-11-26T02:00:00.000Z', shape(10));
    expect((await startShapeCheck(store, replicated, true)).afterRead(shape(0))).toBeUndefined();
    expect((await startShapeCheck(store, replicated, false)).afterRead(shape(0))).toBeDefined();
    const json = await startShapeCheck(store, replicated, false);
    expect(json.atHeader({ format: 'json', columns: ['MLS#'], reads: shape(0, ['MLS#']).reads })).toBeUndefined();
  });

  it('keeps a replicated source under its replication id and a file under its display form', () => {
    const url = request({ feed: { source: 'https://u:p@feeds.example/acme.csv?token=x', profile: 'redfin' } });
    // A rotated password or token is the same feed.
    const rotated = request({ feed: { source: 'https://v:q@feeds.example/acme.csv?token=y', profile: 'redfin' } });
    expect(shapeSourceId(url)).toBe(shapeSourceId(rotated));
    expect(shapeSourceId(request())).not.toBe(shapeSourceId(request({ feed: { source: '/feeds/other.csv', profile: 'redfin' } })));
    // A path typed relative to where the command runs is the same feed as its absolute form.
    const here = request({ feed: { source: 'acme.csv', profile: 'redfin' } });
    expect(shapeSourceId(here)).toBe(shapeSourceId(request({ feed: { source: join(process.cwd(), 'acme.csv'), profile: 'redfin' } })));
  });
});
