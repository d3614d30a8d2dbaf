import { describe, expect, it } from 'vitest';
import { recordFilter } from '../../src/feed/record-filter.js';
import { csvColumns, jsonColumns } from '../../src/feed/source-record.js';
import { oldestWatermark } from '../../src/sync/fleet-pull.js';

describe('oldestWatermark', () => {
  it('is the oldest of the chatbots', () => {
    expect(oldestWatermark(['2024-05-02T00:00:00.000Z', '2024-05-01T10:00:00Z', '2024-05-03T00:00:00.000Z'])).toBe('2024-05-01T10:00:00Z');
  });
  it('is none (a full pull) when one chatbot has none yet', () => {
    expect(oldestWatermark(['2024-05-02T00:00:00.000Z', undefined])).toBeUndefined();
  });
});

describe('recordFilter', () => {
  it('keeps CSV rows by a header column (any case) and names a column the header lacks', () => {
    const columns = csvColumns(['MLSNumber', 'City', 'Price']);
    const filter = recordFilter({ city: 'Evanston', Price: { gte: 200000 } }, 'csv', columns);
    expect(filter.keeps(['M1', 'Evanston', '250000'])).toBe(true);
    expect(filter.keeps(['M2', 'Evanston', '150000'])).toBe(false);
    expect(filter.notCarried()).toEqual([]);
    const typo = recordFilter({ Cty: 'Evanston' }, 'csv', columns);
    expect(typo.keeps(['M1', 'Evanston', '250000'])).toBe(false);
    expect(typo.notCarried()).toEqual(['Cty']);
  });

  it('reads JSON members by their exact name and knows which ones some record carried', () => {
    const first = { ListingId: 'A', ListOfficeMlsId: 'ACME1' };
    const filter = recordFilter({ ListOfficeMlsId: ['ACME1', 'ACME2'], City: 'Evanston' }, 'json', jsonColumns(first));
    expect(filter.keeps(first)).toBe(false);
    expect(filter.notCarried()).toEqual(['City']);
    expect(filter.keeps({ ListingId: 'B', ListOfficeMlsId: 'ACME2', City: 'Evanston' })).toBe(true);
    expect(filter.notCarried()).toEqual([]);
    expect(filter.knownNames()).toContain('ListOfficeMlsId');
  });
});
