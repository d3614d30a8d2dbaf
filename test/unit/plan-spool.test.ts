/**
 * The plan spool (src/sync/plan-spool.ts over spool-file.ts): a sync's creates and updates stay in
 * memory while the plan is small and go to an unlinked temp file once it is not; either way they
 * are read back in key order, whole, as often as asked; a directory that cannot hold the file is
 * one clear error, at once, even for a plan that would have stayed in memory.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listingHash } from '../../src/domain/hash.js';
import type { PlannedCreate, PlannedUpdate } from '../../src/domain/plan.js';
import { createPlanner } from '../../src/domain/planner.js';
import { openPlanSpool, type PlanSpool } from '../../src/sync/plan-spool.js';
import { listing, remote } from '../helpers/planner-fixture.js';
import { ErrorCode } from '../../src/shared/error-codes.js';

const dirs: string[] = [];
const spools: PlanSpool[] = [];
afterEach(() => {
  for (const spool of spools.splice(0)) spool.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'plan-spool-test-'));
  dirs.push(dir);
  return dir;
}

/** A spool in `dir`; by default one that writes every item to its file (inMemoryUpTo 0), the path large plans take. */
function spoolIn(dir: string, inMemoryUpTo = 0): PlanSpool {
  const spool = openPlanSpool(dir, { inMemoryUpTo });
  spools.push(spool);
  return spool;
}

const create = (key: string, description?: string): PlannedCreate => {
  return { key, listing: listing(key, description === undefined ? {} : { Description: description }) };
};

const update = (key: string): PlannedUpdate => {
  const fields = listing(key);
  return {
    key,
    listing: fields,
    hash: listingHash(fields),
    remoteId: `id-${key}`,
    changes: [{ field: 'City', from: 'Old «town»', to: 'New ✓' }],
  };
};

describe('plan spool', () => {
  it('refuses a create added twice when the plan is finished, in memory and in the file alike', () => {
    for (const inMemoryUpTo of [0, 10]) {
      const spool = spoolIn(freshDir(), inMemoryUpTo);
      for (const key of ['b', 'a', 'b']) spool.addCreate(create(key));
      expect(() => spool.finish()).toThrow(/key b added twice/);
    }
  });

  it('gives back every create and update as added, by key, however often it is read', () => {
    const spool = spoolIn(freshDir());
    const creates = ['c', 'a', 'b'].map((key) => create(key, 'ünïcode “quotes” 🏠'));
    const updates = ['z', 'x'].map(update);
    spool.addCreate(creates[0] as PlannedCreate);
    spool.addUpdate(updates[0] as PlannedUpdate);
    spool.addCreate(creates[1] as PlannedCreate);
    spool.addUpdate(updates[1] as PlannedUpdate);
    spool.addCreate(creates[2] as PlannedCreate);
    const finished = spool.finish();
    expect(finished.creates.length).toBe(3);
    expect(finished.updates.length).toBe(2);
    const byKey = <T extends { key: string }>(items: T[]): T[] => [...items].sort((l, r) => (l.key < r.key ? -1 : 1));
    expect([...finished.creates]).toEqual(byKey(creates));
    expect([...finished.updates]).toEqual(byKey(updates));
    expect([...finished.creates]).toEqual(byKey(creates));
  });

  it.each([
    ['from the first item', 0],
    ['from the middle of the creates on', 1000],
    ['from the middle of the updates on', 4500],
  ])('reads back a plan larger than its buffers, in any feed order, in key order and in chunks (spooled %s)', (_, inMemoryUpTo) => {
    const spool = spoolIn(freshDir(), inMemoryUpTo);
    // ~3,000 creates of ~1 KB: past the 1 MiB write buffer and the 1 MiB read runs; added in a
    // shuffled order (items of one run are not adjacent in the file) and in key order (they are).
    const keys = Array.from({ length: 3000 }, (_, i) => `K${String((i * 7919) % 3000).padStart(5, '0')}`);
    for (const key of keys) spool.addCreate(create(key, 'x'.repeat(800)));
    for (const key of [...keys].sort()) spool.addUpdate(update(key));
    const { creates, updates } = spool.finish();
    const sorted = [...keys].sort();
    expect(Array.from(creates, (c) => c.key)).toEqual(sorted);
    expect(Array.from(updates, (u) => u.key)).toEqual(sorted);
    expect([...creates][1234]).toEqual(create(sorted[1234] as string, 'x'.repeat(800)));
    // Iterated lazily: taking one chunk reads only what it needs, and a fresh iteration starts over.
    const iterator = creates[Symbol.iterator]();
    const chunk = Array.from({ length: 100 }, () => iterator.next().value as PlannedCreate);
    expect(chunk.map((c) => c.key)).toEqual(sorted.slice(0, 100));
    expect([...creates].length).toBe(3000);
  });

  it('keeps a plan of up to inMemoryUpTo writes in memory, and moves all of it to the file at the next one', () => {
    const added = ['b', 'a', 'c'].map((key) => create(key, 'held'));
    const small = spoolIn(freshDir(), 4);
    for (const item of added) small.addCreate(item);
    small.addUpdate(update('u'));
    const inMemory = small.finish();
    // The very objects added: nothing was turned into JSON and back.
    expect([...inMemory.creates]).toEqual([added[1], added[0], added[2]]);
    expect([...inMemory.creates][0]).toBe(added[1]);

    const large = spoolIn(freshDir(), 4);
    for (const item of added) large.addCreate(item);
    large.addUpdate(update('u'));
    large.addCreate(create('0', 'past the limit'));
    const spooled = large.finish();
    expect([...spooled.creates]).toEqual([create('0', 'past the limit'), added[1], added[0], added[2]]);
    expect([...spooled.creates][1]).not.toBe(added[1]);
    expect([...spooled.updates]).toEqual([update('u')]);
  });

  it('leaves no file behind: the file is unlinked as soon as it is opened', () => {
    const dir = freshDir();
    const spool = spoolIn(dir);
    expect(readdirSync(dir)).toEqual([]);
    for (let i = 0; i < 2000; i++) spool.addCreate(create(`K${i}`, 'y'.repeat(900)));
    const { creates } = spool.finish();
    expect(readdirSync(dir)).toEqual([]);
    expect(creates.length).toBe(2000);
    spool.close();
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([0, 2, 10])('is what a planner given it fills: the same plan as in memory (in memory up to %i)', (inMemoryUpTo) => {
    const remoteListings = [remote('10', listing('1')), remote('20', listing('2', { City: 'Before' }))];
    const context = { chatbot: 'bot', keyType: 'MLSNumber' as const, mode: 'mirror' as const, deleteScope: 'all' as const };
    const feed: Array<[string, ReturnType<typeof listing>]> = [
      ['3', listing('3')],
      ['2', listing('2', { City: 'After' })],
      ['0', listing('0')],
    ];
    const inMemory = createPlanner({ ...context, remote: remoteListings, ledger: new Map() });
    const spooled = createPlanner({ ...context, remote: remoteListings, ledger: new Map() }, spoolIn(freshDir(), inMemoryUpTo));
    for (const [key, fields] of feed) {
      inMemory.add(key, fields);
      spooled.add(key, fields);
    }
    const expected = inMemory.finish().plan;
    const actual = spooled.finish().plan;
    expect({ ...actual, creates: [...actual.creates], updates: [...actual.updates] }).toEqual(expected);
  });

  it('a directory that cannot hold it is one error naming the directory and TMPDIR, at once', () => {
    const missing = join(freshDir(), 'no-such-dir');
    const notADir = join(freshDir(), 'a-file');
    writeFileSync(notADir, 'x');
    for (const dir of [missing, notADir]) {
      let thrown: unknown;
      try {
        openPlanSpool(dir);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({ code: ErrorCode.SPOOL_UNWRITABLE });
      const message = (thrown as Error).message;
      expect(message).toContain(dir);
      expect(message).toContain('set TMPDIR');
      expect(message).not.toContain('\n');
    }
  });
});
