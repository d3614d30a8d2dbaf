/**
 * The pure parts of the RESO replication client: timestamps, OData URLs, the replication query
 * of a first run, an incremental pull and a sweep, Retry-After and jittered waits, Media order,
 * and redaction of quoted server text.
 */
import { DD_FIELDS } from '../../src/feed/reso-api/replication-fields.js';
import { describe, expect, it } from 'vitest';
import { mediaInOrder } from '../../src/feed/reso-api/media.js';
import { allOf, odataString, odataUrl } from '../../src/feed/reso-api/odata-url.js';
import { replicationQuery } from '../../src/feed/reso-api/replication-query.js';
import { mediaUrlBeside } from '../../src/feed/reso-api/replicate.js';
import { redact } from '../../src/feed/reso-api/reso-errors.js';
import { compareStamps, parseStamp, stampLiteral, stampMinus } from '../../src/feed/reso-api/timestamps.js';

describe('timestamps', () => {
  it('parse DateTimeOffset values with up to 7 fractional digits and any offset, exactly', () => {
    expect(parseStamp('2024-05-01T12:00:00.1234567Z')).toEqual({ ms: Date.parse('2024-05-01T12:00:00.123Z'), ticks: 4567 });
    expect(parseStamp('2024-05-01T14:00:00+02:00')).toEqual({ ms: Date.parse('2024-05-01T12:00:00Z'), ticks: 0 });
    const [a, b] = [parseStamp('2024-05-01T12:00:00.1230001Z'), parseStamp('2024-05-01T12:00:00.123Z')];
    expect(compareStamps(a!, b!)).toBeGreaterThan(0);
    expect(compareStamps(parseStamp('2024-05-01T12:00:00Z')!, parseStamp('2024-05-01T08:00:00-04:00')!)).toBe(0);
  });

  it.each([
    '2024-02-30T00:00:00Z',
    '2024-13-01T00:00:00Z',
    '2024-05-01T24:00:00Z',
    '2024-05-01T12:60:00Z',
    '2024-05-01T12:00:00',
    '2024-05-01',
    17,
    undefined,
  ])('refuse %j', (value) => expect(parseStamp(value)).toBeUndefined());

  it('write filter literals in UTC with the ticks kept; the overlap moves back to a whole ms', () => {
    expect(stampLiteral(parseStamp('2024-05-01T14:00:00.5+02:00')!)).toBe('2024-05-01T12:00:00.500Z');
    expect(stampLiteral(parseStamp('2024-05-01T12:00:00.1234567Z')!)).toBe('2024-05-01T12:00:00.1234567Z');
    expect(stampLiteral(parseStamp('2024-05-01T12:00:00.0000001Z')!)).toBe('2024-05-01T12:00:00.0000001Z');
    expect(stampLiteral(stampMinus(parseStamp('2024-05-01T12:00:00.1234567Z')!, 0))).toBe('2024-05-01T12:00:00.123Z');
    expect(stampLiteral(stampMinus(parseStamp('2024-05-01T12:00:00Z')!, 20 * 60_000))).toBe('2024-05-01T11:40:00.000Z');
  });
});

describe('OData URLs', () => {
  it("put the options after the resource, $ literal, values encoded, the URL's own parameters kept", () => {
    const url = odataUrl('https://mls.example/odata/Property?access_token=abc&$top=5', {
      filter: "ListingKey eq 'O''Brien'",
      orderBy: 'ModificationTimestamp,ListingKey',
      select: ['ListingKey', 'ListingId'],
      expand: ['Media'],
      top: 100,
      skip: 200,
      count: true,
    });
    expect(url).toBe(
      "https://mls.example/odata/Property?access_token=abc&$filter=ListingKey%20eq%20'O''Brien'&$orderby=ModificationTimestamp%2CListingKey&$select=ListingKey%2CListingId&$expand=Media&$top=100&$skip=200&$count=true",
    );
    expect(new URL(url).searchParams.get('$filter')).toBe("ListingKey eq 'O''Brien'");
    expect(odataUrl('https://mls.example/odata/Property', { top: 10, skip: 0, count: false })).toBe(
      'https://mls.example/odata/Property?$top=10',
    );
    expect(odataString("it's")).toBe("'it''s'");
    expect(allOf(undefined, 'a eq 1')).toBe('a eq 1');
    expect(allOf('a eq 1', 'b ge 2')).toBe('(a eq 1) and (b ge 2)');
    expect(mediaUrlBeside('https://mls.example/odata/Property?dataset=x')).toBe('https://mls.example/odata/Media?dataset=x');
  });
});

describe('replicationQuery', () => {
  const base = { fields: DD_FIELDS, expandMedia: true };

  it('asks a first run for everything (the pager orders, pages and counts it)', () => {
    expect(replicationQuery(base)).toEqual({ expand: ['Media'] });
  });

  it('asks a later run for ModificationTimestamp ge the watermark minus the overlap', () => {
    expect(replicationQuery({ ...base, watermark: '2024-05-01T12:00:00.000Z' }).filter).toBe(
      'ModificationTimestamp ge 2024-05-01T12:00:00.000Z',
    );
    expect(replicationQuery({ ...base, watermark: '2024-05-01T12:00:00.000Z', overlapMs: 1_200_000 }).filter).toBe(
      'ModificationTimestamp ge 2024-05-01T11:40:00.000Z',
    );
    expect(replicationQuery({ ...base, watermark: '2024-05-01T12:00:00Z', select: ['City'], keyFields: ['ListingId'] }).select).toEqual([
      'ListingKey',
      'ListingId',
      'ModificationTimestamp',
      'City',
    ]);
  });

  it('asks a sweep for the key fields (and the stamp that orders them) only, without Media or filter', () => {
    expect(replicationQuery({ ...base, sweep: true, keyFields: ['ListingURL'], watermark: '2024-05-01T12:00:00Z' })).toEqual({
      select: ['ListingKey', 'ListingURL', 'ModificationTimestamp'],
    });
  });

  it('refuses a watermark that is not a date-time with an offset and a negative overlap', () => {
    expect(() => replicationQuery({ ...base, watermark: 'yesterday' })).toThrow(/watermark 'yesterday' is not an ISO 8601 date-time/);
    expect(() => replicationQuery({ ...base, watermark: '2024-05-01T12:00:00Z', overlapMs: -1 })).toThrow(/overlap/);
  });
});

describe('Media order and redaction', () => {
  it('sorts photos by Order (numbers or numeric text), keeping those without an Order last in their order', () => {
    const media = [{ Order: 3, u: 'c' }, { u: 'x' }, { Order: '1', u: 'a' }, { Order: 2, u: 'b' }, { Order: 'first', u: 'y' }];
    expect((mediaInOrder(media) as Array<{ u: string }>).map((photo) => photo.u)).toEqual(['a', 'b', 'c', 'x', 'y']);
    expect(media[0]).toEqual({ Order: 3, u: 'c' });
    expect(mediaInOrder(undefined)).toBeUndefined();
  });

  it('replaces every secret in quoted text and cuts it to a quotable length', () => {
    expect(redact('token abc123 and abc123, secret s3cr3t', ['abc123', 's3cr3t', ''])).toBe(
      'token [redacted] and [redacted], secret [redacted]',
    );
    expect(redact('x'.repeat(400), [])).toHaveLength(301);
  });
});
