/**
 * The pure parts of EntityEvent replication: coalescing events per (ResourceName,
 * ResourceRecordKey), the retention-gap rule, `in (...)` chunks of at most 100 keys, and the
 * pager's continuation after an Int64 key (unquoted) beside a string key (quoted).
 */
import { describe, expect, it } from 'vitest';
import { coalesceEvents, keyChunks, retentionGap } from '../../src/feed/reso-api/entity-events.js';
import { afterCursor } from '../../src/feed/reso-api/keyed-pager.js';
import { replicateRequest } from '../../src/cli/input/replicate-options.js';

const event = (sequence: number, resource: string, key: string) => ({
  EntityEventSequence: sequence,
  ResourceName: resource,
  ResourceRecordKey: key,
  ResourceRecordUrl: null,
});

describe('coalesceEvents', () => {
  it('reads each record once, in order of its latest event, and keeps Media apart', () => {
    const coalesced = coalesceEvents([
      event(11, 'Property', 'A'),
      event(12, 'Media', 'A-1'),
      event(13, 'Property', 'B'),
      event(14, 'Property', 'A'),
      event(15, 'Member', 'M1'),
      event(16, 'Media', 'A-1'),
    ]);
    expect(coalesced).toEqual({ propertyKeys: ['B', 'A'], mediaKeys: ['A-1'], lastSequence: 16, events: 6 });
  });

  it('moves the sequence past events of other resources, and takes a sequence sent as text', () => {
    expect(coalesceEvents([event(3, 'Lookup', 'x'), { ...event(4, 'Property', 'K'), EntityEventSequence: '9' }])).toMatchObject({
      propertyKeys: ['K'],
      lastSequence: 9,
    });
  });

  it('of no events: no keys and no sequence', () => {
    expect(coalesceEvents([])).toEqual({ propertyKeys: [], mediaKeys: [], lastSequence: undefined, events: 0 });
  });
});

describe('retentionGap', () => {
  it('is a gap only when the oldest retained event lies past the next one the client would read', () => {
    expect(retentionGap(100, 101)).toBe(false);
    expect(retentionGap(100, 50)).toBe(false);
    expect(retentionGap(100, 102)).toBe(true);
    expect(retentionGap(100, undefined)).toBe(false);
    expect(retentionGap(0, 1)).toBe(false);
  });
});

describe('keyChunks and the key continuation', () => {
  it('asks at most 100 keys per request', () => {
    const keys = Array.from({ length: 250 }, (_, index) => `K${index}`);
    const chunks = keyChunks('ListingKey', keys);
    expect(chunks).toHaveLength(3);
    expect(chunks[0]).toMatch(/^ListingKey in \('K0','K1',/);
    expect(chunks[2]?.split(',')).toHaveLength(50);
  });

  it('continues after an Int64 key unquoted and after a string key quoted', () => {
    expect(afterCursor({ keyField: 'EntityEventSequence' }, { key: 19360 })).toBe('EntityEventSequence gt 19360');
    expect(afterCursor({ keyField: 'MediaKey' }, { key: "it's" })).toBe("MediaKey gt 'it''s'");
  });
});

describe('--events', () => {
  const feed = { source: 'https://mls.example/odata/Property', profile: 'reso' } as Parameters<typeof replicateRequest>[1];
  it('is refused without --replicate, in one line', () => {
    expect(() => replicateRequest({ events: true }, feed, undefined)).toThrow(/^--events needs --replicate$/);
  });
  it('is carried in the request with --replicate', () => {
    expect(replicateRequest({ replicate: true, events: true }, feed, undefined)).toMatchObject({ events: true, sweep: false });
    expect(replicateRequest({ replicate: true }, feed, undefined)).not.toHaveProperty('events');
  });
  it('refuses --sweep beside it in one line: an event run sweeps by itself when it must', () => {
    expect(() => replicateRequest({ replicate: true, events: true, sweep: true }, feed, undefined)).toThrow(
      /^--sweep does nothing with --events \(.*\): drop it$/,
    );
  });
});
