/**
 * planFeedRows, the boundary between the importer and the planner: backpressure while the
 * planner is not ready, holds and withheld deletes for rejected rows, and a stop on abort. The
 * feed is a counting OpenFeed (the importer is tested on its own); the planner is the real one.
 */
import { describe, expect, it } from 'vitest';
import { createPlanner, type Planner } from '../../src/domain/planner.js';
import type { LedgerEntry } from '../../src/domain/ledger-entry.js';
import type { FeedRow, OpenFeed } from '../../src/feed/open-feed.js';
import { MAX_WAITING_ROWS, planFeedRows } from '../../src/sync/plan-feed-rows.js';
import { listing, remote } from '../helpers/planner-fixture.js';

/** An OpenFeed over `rows` that counts how many rows were pulled from it. */
function countingFeed(rows: readonly FeedRow[]): OpenFeed & { pulled: () => number } {
  let pulled = 0;
  async function* generate(): AsyncGenerator<FeedRow> {
    for (const row of rows) {
      pulled += 1;
      yield row;
    }
  }
  return {
    rows: generate(),
    stats: () => ({ rows: pulled, valid: pulled, rejected: 0, excluded: 0, duplicates: 0, filledDefaults: {} }),
    progress: () => ({ bytes: pulled }),
    readIn: 'main',
    shape: () => undefined,
    pulled: () => pulled,
  };
}

const listingRows = (count: number): FeedRow[] =>
  Array.from({ length: count }, (_, i) => ({ kind: 'listing', line: i + 2, key: `K${i}`, listing: listing(`K${i}`) }));

/** Lets every pending promise and timer callback run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/** Remote K0..K9, all in the ledger (written by listing-sync). */
function managedPlanner(): Planner {
  const keys = Array.from({ length: 10 }, (_, i) => `K${i}`);
  const ledger = new Map<string, LedgerEntry>(keys.map((key) => [key, { hash: 'x', writtenAt: 0, runId: 'run-0' }]));
  return createPlanner({
    chatbot: 'bot',
    keyType: 'MLSNumber',
    mode: 'mirror',
    deleteScope: 'managed',
    remote: keys.map((key, i) => remote(String(100 + i), listing(key))),
    ledger,
  });
}

const emptyPlanner = (): Planner =>
  createPlanner({ chatbot: 'bot', keyType: 'MLSNumber', mode: 'mirror', deleteScope: 'managed', remote: [], ledger: new Map() });

describe('planFeedRows backpressure', () => {
  it('pulls at most maxWaitingRows rows while the planner is not ready, then the rest', async () => {
    const feed = countingFeed(listingRows(1000));
    const planner = deferred<Planner>();
    const planned = planFeedRows(feed, planner.promise, { maxWaitingRows: 100 });
    await settle();
    expect(feed.pulled()).toBe(100);
    await settle();
    expect(feed.pulled()).toBe(100);
    planner.resolve(emptyPlanner());
    const { planned: result } = await planned;
    expect(feed.pulled()).toBe(1000);
    expect(result.plan.creates).toHaveLength(1000);
  });

  it('holds back at the default of a few thousand rows', async () => {
    const feed = countingFeed(listingRows(MAX_WAITING_ROWS * 3));
    const planner = deferred<Planner>();
    const planned = planFeedRows(feed, planner.promise);
    await settle();
    expect(feed.pulled()).toBe(MAX_WAITING_ROWS);
    planner.resolve(emptyPlanner());
    expect((await planned).planned.plan.creates).toHaveLength(MAX_WAITING_ROWS * 3);
  });

  it('a planner that fails while the reader waits fails the read and closes the feed', async () => {
    const feed = countingFeed(listingRows(50));
    const failing = Promise.reject(Object.assign(new Error('remote read failed'), { code: 'REMOTE' }));
    await expect(planFeedRows(feed, failing, { maxWaitingRows: 10 })).rejects.toMatchObject({ code: 'REMOTE' });
    expect(feed.pulled()).toBe(10);
  });
});

describe('planFeedRows and rejected rows', () => {
  const rejected = (line: number, extra: Partial<Extract<FeedRow, { kind: 'rejected' }>>): FeedRow => ({
    kind: 'rejected',
    line,
    field: '(record)',
    value: '',
    reason: 'broken',
    ...extra,
  });

  it("holds a broken row's key and every candidate: none of them is deleted", async () => {
    const rows = [...listingRows(6), rejected(20, { key: 'K7' }), rejected(21, { keyCandidates: ['K8', 'Apt 4', 'K8,Apt 4'] })];
    const { planned } = await planFeedRows(countingFeed(rows), Promise.resolve(managedPlanner()));
    expect(planned.plan.deletes.map((d) => d.key)).toEqual(['K6', 'K9']);
    expect(planned.plan.held).toBe(2);
    expect(planned.plan.deletesWithheld).toBeUndefined();
  });

  it('a row whose key cannot be read withholds every delete and says on which lines', async () => {
    const rows = [...listingRows(6), rejected(30, { keyUnreadable: true }), rejected(31, { key: 'K7' })];
    const { planned } = await planFeedRows(countingFeed(rows), Promise.resolve(managedPlanner()));
    expect(planned.plan.deletes).toEqual([]);
    expect(planned.plan.deletesWithheld).toEqual({ deletes: 3, rows: 1, lines: [30] });
  });
});

describe('planFeedRows and the abort signal', () => {
  it('stops between rows with FEED_INTERRUPTED, naming the feed as shown', async () => {
    const controller = new AbortController();
    const feed = countingFeed(listingRows(100));
    const source = feed.rows;
    // SIGTERM arrives while the 10th row is read.
    async function* abortingAt10(): AsyncGenerator<FeedRow> {
      for await (const row of source) {
        if (feed.pulled() === 10) controller.abort(new Error('interrupted'));
        yield row;
      }
    }
    const options = { signal: controller.signal, where: 'https://feeds.test/x?…' };
    await expect(planFeedRows({ ...feed, rows: abortingAt10() }, Promise.resolve(emptyPlanner()), options)).rejects.toMatchObject({
      code: 'FEED_INTERRUPTED',
      message:
        'Feed https://feeds.test/x?… was not read to the end: the sync was interrupted, so nothing was planned or changed. Run the sync again.',
    });
    expect(feed.pulled()).toBe(10);
  });
});
