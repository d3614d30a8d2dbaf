/**
 * Stored run summaries read back (src/store/run-summary.ts): what this version writes reads whole
 * and in the order it was written; a record an older version wrote (no `plan.held`) or a damaged
 * one keeps every valid part, so neither the dashboard nor `runs show` breaks on it.
 */
import { describe, expect, it } from 'vitest';
import { readRunSummary, syncSummaryOf, type SyncSummary } from '../../src/store/run-summary.js';

const summary: SyncSummary = {
  runId: 'run-1',
  chatbot: 'bot',
  dryRun: false,
  trigger: 'schedule',
  startedAt: '2026-11-21T02:00:00.000Z',
  feed: {
    source: 'feed.csv',
    profile: 'redfin',
    rows: 10,
    valid: 9,
    rejected: 1,
    excluded: 0,
    duplicates: 0,
    filledDefaults: { SaleType: 2 },
  },
  remote: { listings: 8, virtualCount: 8, complete: true, incompleteReasons: [], duplicates: 0, unkeyed: 0 },
  plan: { create: 2, update: 1, delete: 0, unchanged: 6, held: 1 },
  changes: [{ field: 'SalePrice', count: 1, samples: [{ key: 'K1', from: 350000 }] }],
  guard: { ok: false, reasons: ['too many deletes'], forced: false },
  wipes: {
    maxWipes: '10%',
    allowWipe: ['Bedrooms'],
    fields: [{ field: 'SalePrice', count: 1, holders: 8, verdict: 'within', samples: [{ key: 'K1', from: 350000 }] }],
  },
  finishedAt: '2026-11-21T02:00:05.000Z',
};

describe('stored run summaries', () => {
  it('read back whole, in the order they were written', () => {
    const text = JSON.stringify(summary);
    const read = readRunSummary(text);
    expect(JSON.stringify(read)).toBe(text);
    expect(syncSummaryOf(read)).toEqual(summary);
  });

  it('read a record an older version wrote (no plan.held) as a whole sync summary, held 0', () => {
    const { held: _held, ...oldPlan } = summary.plan;
    const read = readRunSummary(JSON.stringify({ ...summary, plan: oldPlan }));
    expect(read?.plan).toEqual({ ...oldPlan, held: 0 });
    expect(syncSummaryOf(read)?.plan.held).toBe(0);
  });

  it('keep the valid parts of a damaged record and drop the rest, and keep fields they do not know', () => {
    const read = readRunSummary(JSON.stringify({ ...summary, guard: { ok: 'yes' }, feed: 'not an object', note: 'kept' }));
    expect(read?.guard).toBeUndefined();
    expect(read?.feed).toBeUndefined();
    expect(read?.plan).toEqual(summary.plan);
    expect(read?.note).toBe('kept');
    expect(syncSummaryOf(read)).toBeUndefined();
  });

  it('read a record without the per-field parts (older versions) whole, and drop a damaged wipes part alone', () => {
    const { changes: _changes, wipes: _wipes, ...older } = summary;
    expect(syncSummaryOf(readRunSummary(JSON.stringify(older)))).toEqual(older);
    const damaged = readRunSummary(JSON.stringify({ ...summary, wipes: { fields: 'odd' } }));
    expect(damaged?.wipes).toBeUndefined();
    expect(damaged?.changes).toEqual(summary.changes);
    expect(damaged?.guard).toEqual(summary.guard);
  });

  it('read a skipped run, a run without a summary and unreadable text without throwing', () => {
    expect(readRunSummary(JSON.stringify({ skipped: 'held by run-0' }))).toEqual({ skipped: 'held by run-0' });
    expect(syncSummaryOf(readRunSummary(JSON.stringify({ skipped: 'held by run-0' })))).toBeUndefined();
    expect(readRunSummary('null')).toBeNull();
    expect(readRunSummary('[1,2]')).toBeNull();
    expect(readRunSummary('{not json')).toBeNull();
    expect(readRunSummary(undefined)).toBeNull();
  });
});
