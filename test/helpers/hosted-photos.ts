/**
 * What the hosted-photo tests share: temp directories for stores and feeds (removed after each
 * test), the object name a photo's bytes get, the Images each listing should show and the ones the
 * service simulator holds, and the photo counts a run reports.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { photoBytes } from '../../src/sim/reso/server.js';
import type { ResoFixture } from './reso-fixture.js';

/** A run's photo counts (src/feed/media/photo-counts.ts), as `--json` prints them. */
export interface PhotoCounts {
  hosted: number;
  reused: number;
  notFetched: number;
  refreshed?: number;
  wouldFetch?: number;
  failures: Record<string, Record<string, number>>;
}

export const sha = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** The object a RESO simulator photo becomes: the sha256 of its bytes, as a .jpg. */
export const objectOf = (mediaKey: string, stamp: string): string => `${sha(photoBytes(mediaKey, stamp))}.jpg`;

/** A maker of temp directories, each removed after the test that made it (call at the top of a test file). */
export function tempDirs(): (label: string) => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return (label) => {
    const dir = mkdtempSync(join(tmpdir(), label));
    dirs.push(dir);
    return dir;
  };
}

/** The hosted URLs each listing should show, by ListingId (the chatbot's MLSNumber): each source photo's object under `base`, in Order. */
export function expectedImages(f: ResoFixture, base: string): Map<string, string[]> {
  return new Map(
    f.reso.state.records
      .list()
      .map((record) => [
        record.property.ListingId,
        [...record.media]
          .sort((a, b) => a.Order - b.Order)
          .map((photo) => `${base}/${objectOf(photo.MediaKey, photo.ModificationTimestamp)}`),
      ]),
  );
}

/** The Images `chatbot`'s listings hold at the service simulator, by MLSNumber. */
export function heldImages(f: ResoFixture, chatbot: string): Map<string, string[]> {
  return new Map(f.sim.state.listings(chatbot).map((listing) => [String(listing.MLSNumber), [...(listing.Images ?? [])]]));
}

/** No write body the service simulator received names the RESO simulator's media host (and there were writes). */
export function expectNoMediaHostWritten(f: ResoFixture): void {
  const mediaHost = new URL(f.reso.baseUrl).host;
  const writes = f.sim.state.calls().filter((call) => call.body !== undefined);
  expect(writes.length).toBeGreaterThan(0);
  for (const call of writes) expect(JSON.stringify(call.body)).not.toContain(mediaHost);
}

/** A file store `dir` holds `count` photos, each named by the sha256 of its bytes. */
export function expectStoreHoldsSourceBytes(dir: string, count: number): void {
  const objects = readdirSync(dir).filter((name) => name.endsWith('.jpg'));
  expect(objects).toHaveLength(count);
  for (const name of objects) expect(`${sha(readFileSync(join(dir, name)))}.jpg`).toBe(name);
}
