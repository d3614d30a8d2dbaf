import { describe, expect, it } from 'vitest';
import type { FieldWipe } from '../../src/domain/field-changes.js';
import { checkGuard, parseMaxDeletes, type GuardInput } from '../../src/domain/guard.js';
import { LedgerByPosition } from '../../src/domain/snapshot/ledger-by-position.js';
import type { Plan, PlannedDelete } from '../../src/domain/plan.js';
import { planSync, type PlanResult } from '../../src/domain/planner.js';
import { remoteRows } from '../../src/domain/snapshot/remote.js';
import { indexRemoteKeys } from '../../src/domain/snapshot/remote-key-index.js';
import { listing, remote } from '../helpers/planner-fixture.js';

function gone(count: number): PlannedDelete[] {
  return Array.from({ length: count }, (_, i) => ({
    key: `k${i}`,
    keyType: 'MLSNumber' as const,
    reason: 'gone' as const,
    listingKey: `k${i}`,
  }));
}

function planWith(deletes: PlannedDelete[]): Plan {
  return { chatbot: 'bot', keyType: 'MLSNumber', mode: 'mirror', deleteScope: 'managed', creates: [], updates: [], deletes, unchanged: 0 };
}

function guard(overrides: Partial<GuardInput>): ReturnType<typeof checkGuard> {
  const feedRows = overrides.feedRows ?? 200;
  const rejectedRows = overrides.rejectedRows ?? 0;
  return checkGuard({
    plan: planWith([]),
    feedRows,
    validRows: feedRows - rejectedRows,
    rejectedRows,
    remoteComplete: true,
    remoteIncompleteReasons: [],
    managedCount: 200,
    maxDeletes: { kind: 'percent', value: 10 },
    maxRejectedPercent: 5,
    force: false,
    ...overrides,
  });
}

describe('checkGuard', () => {
  it('passes a healthy run', () => {
    expect(guard({ plan: planWith(gone(20)) })).toEqual({ ok: true, forced: false, reasons: [], wipes: [] });
  });

  it('refuses deletes above a percentage of the managed listings, naming the override', () => {
    const verdict = guard({ plan: planWith(gone(40)) });
    expect(verdict.ok).toBe(false);
    expect(verdict.reasons).toHaveLength(1);
    expect(verdict.reasons[0]).toContain('40 listings of 200 managed');
    expect(verdict.reasons[0]).toContain('--max-deletes 40 (or 20%) or --force');
  });

  it('refuses deletes above a count, and any delete when nothing is managed', () => {
    expect(guard({ plan: planWith(gone(26)), maxDeletes: { kind: 'count', value: 25 } }).reasons[0]).toContain(
      '--max-deletes 26 or --force',
    );
    expect(guard({ plan: planWith(gone(25)), maxDeletes: { kind: 'count', value: 25 } }).ok).toBe(true);
    expect(guard({ plan: planWith(gone(1)), managedCount: 0, remoteListings: 5 }).ok).toBe(false);
  });

  it('does not count duplicate clean-up against --max-deletes', () => {
    const duplicates: PlannedDelete[] = gone(50).map((d) => ({ ...d, keyType: 'NewOaks', reason: 'duplicate' }));
    expect(guard({ plan: planWith(duplicates) }).ok).toBe(true);
  });

  it('refuses when too many rows were rejected', () => {
    const verdict = guard({ feedRows: 100, rejectedRows: 6 });
    expect(verdict.ok).toBe(false);
    expect(verdict.reasons[0]).toContain('6 of 100 feed rows were rejected (6%)');
    expect(verdict.reasons[0]).toContain('--max-rejected 6% or --force');
    expect(guard({ feedRows: 100, rejectedRows: 5 }).ok).toBe(true);
  });

  it('refuses a feed with fewer than half the rows of the last successful run', () => {
    expect(guard({ feedRows: 99, lastSuccessfulFeedRows: 200 }).reasons[0]).toContain('99 rows, fewer than half of the 200 rows');
    expect(guard({ feedRows: 100, lastSuccessfulFeedRows: 200 }).ok).toBe(true);
  });

  it('refuses when the remote snapshot is incomplete, even without deletes', () => {
    const verdict = guard({ remoteComplete: false, remoteIncompleteReasons: ['page 3 failed: HTTP 502'] });
    expect(verdict.ok).toBe(false);
    expect(verdict.reasons[0]).toContain('page 3 failed: HTTP 502');
    expect(verdict.reasons[0]).toContain('--force');
  });

  it('always refuses an empty feed against a non-empty chatbot', () => {
    const verdict = guard({ feedRows: 0, rejectedRows: 0, maxDeletes: { kind: 'count', value: 1000 }, plan: planWith(gone(200)) });
    expect(verdict.ok).toBe(false);
    expect(verdict.reasons[0]).toContain('no valid rows while the chatbot holds 200 listings');
    expect(guard({ feedRows: 3, rejectedRows: 3, maxRejectedPercent: 100, managedCount: 5 }).ok).toBe(false);
    expect(guard({ feedRows: 0, managedCount: 0 }).ok).toBe(true);
    // Rows that were excluded (RESO Withdrawn…) list nothing: a feed of only those is empty.
    expect(guard({ feedRows: 5, validRows: 0, rejectedRows: 0, managedCount: 9 }).reasons[0]).toContain('no valid rows');
  });

  it('lets --force through, saying it was forced and keeping every reason', () => {
    const verdict = guard({ plan: planWith(gone(40)), feedRows: 100, rejectedRows: 50, remoteComplete: false, force: true });
    expect(verdict.ok).toBe(true);
    expect(verdict.forced).toBe(true);
    expect(verdict.reasons).toHaveLength(3);
  });
});

describe('parseMaxDeletes', () => {
  it('reads counts and percentages', () => {
    expect(parseMaxDeletes('25')).toEqual({ kind: 'count', value: 25 });
    expect(parseMaxDeletes(' 10% ')).toEqual({ kind: 'percent', value: 10 });
    expect(parseMaxDeletes('12.5%')).toEqual({ kind: 'percent', value: 12.5 });
  });

  it.each(['', 'ten', '-1', '1.5', '150%', '%', '10%%'])('rejects %j with a USAGE error', (text) => {
    expect(() => parseMaxDeletes(text)).toThrow(
      expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('--max-deletes') }),
    );
  });
});

describe('the base of a percentage --max-deletes', () => {
  // 100 remote listings, all written by listing-sync; the ledger also remembers 100 listings the
  // chatbot lost by hand and 50 entries written under the other key type. A feed naming 82 of the
  // 100 plans 18 deletes: 18% of what is there, 7.2% of the whole ledger.
  const keys = Array.from({ length: 100 }, (_, i) => `K${i}`);
  const snapshot = remoteRows(keys.map((key, i) => remote(String(1000 + i), listing(key))));
  const entry = { hash: 'a'.repeat(64), writtenAt: 0, runId: 'run-0' };
  const ledgerKeys = [...keys, ...keys.map((key) => `LOST-${key}`), ...keys.slice(0, 50).map((key) => `https://e.test/${key}`)];
  const feed = new Map(keys.slice(0, 82).map((key) => [key, listing(key)]));
  const context = { chatbot: 'bot', keyType: 'MLSNumber', mode: 'mirror', deleteScope: 'managed', feed, remote: snapshot } as const;

  function verdictWith(result: PlanResult): ReturnType<typeof checkGuard> {
    return guard({ plan: result.plan, feedRows: 82, managedCount: result.managedListings, remoteListings: snapshot.length });
  }

  it('counts only ledger entries a remote listing holds, with the ledger map', () => {
    const result = planSync({ ...context, ledger: new Map(ledgerKeys.map((key) => [key, entry])) });
    expect(result.plan.deletes).toHaveLength(18);
    expect(result.managedListings).toBe(100);
    expect(verdictWith(result).reasons).toEqual([expect.stringContaining('18 listings of 100 managed (18%), more than --max-deletes 10%')]);
  });

  it('counts only ledger entries a remote listing holds, with the ledger by position a sync reads', () => {
    const index = indexRemoteKeys(snapshot, 'MLSNumber');
    const ledger = new LedgerByPosition(index, snapshot.length);
    for (const key of ledgerKeys) ledger.add(key, entry.hash);
    expect([ledger.size, ledger.heldBy(index)]).toEqual([250, 100]);
    const result = planSync({ ...context, index, ledger });
    expect(result.managedListings).toBe(100);
    expect(verdictWith(result).ok).toBe(false);
  });
});

/** A field emptied on `count` of its `holders`, with up to three samples. */
function wipe(field: string, count: number, holders: number): FieldWipe {
  const samples = Array.from({ length: Math.min(count, 3) }, (_, i) => ({ key: String(1000 + i), from: 100 + i }));
  return { field, count, holders, samples };
}

describe('checkGuard and the field-wipe guard', () => {
  it('refuses more than 10% of the holders, naming the field, its count, three samples and the overrides', () => {
    const verdict = guard({ wipes: [wipe('SalePrice', 350, 350)] });
    expect(verdict.ok).toBe(false);
    expect(verdict.reasons).toEqual([
      'The plan would empty SalePrice on 350 listings of the 350 that hold it (100%), more than --max-wipes 10% (35), e.g. 1000 100 → (empty); 1001 101 → (empty); 1002 102 → (empty). Check the feed; if it is right, rerun with --allow-wipe SalePrice or --force.',
    ]);
    expect(verdict.wipes.map((judged) => judged.verdict)).toEqual(['refused']);
  });

  it('lets an allowed field through and still refuses the others; --force passes with the reasons kept', () => {
    const wipes = [wipe('Bedrooms', 300, 320), wipe('SalePrice', 350, 350)];
    const allowed = guard({ wipes, wipeLimits: { maxWipes: { kind: 'percent', value: 10 }, allowWipe: ['Bedrooms'] } });
    expect(allowed.ok).toBe(false);
    expect(allowed.wipes.map((judged) => [judged.field, judged.verdict])).toEqual([
      ['Bedrooms', 'allowed'],
      ['SalePrice', 'refused'],
    ]);
    expect(allowed.reasons).toHaveLength(1);
    expect(allowed.reasons[0]).toContain('--allow-wipe SalePrice');
    const forced = guard({ wipes, force: true });
    expect(forced).toMatchObject({ ok: true, forced: true });
    expect(forced.reasons).toHaveLength(2);
  });
});
