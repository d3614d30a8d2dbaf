import { describe, expect, it } from 'vitest';
import { isWebUrl, listingFieldsSchema } from '../../src/domain/listing.js';
import { quickValid } from '../../src/feed/quick-validate.js';

const valid = {
  SaleType: 'for_sale',
  Status: 'Active',
  CurrencySymbol: '$',
  PropertyType: 'Condo',
  Bedrooms: 2,
  Bathrooms: 1,
  Url: 'https://homes.example/1',
  MLSNumber: '1',
  YearBuilt: 1990,
  DaysOnMarket: 3,
  LotArea: 0,
  BuildingArea: 800,
  AreaUnit: 'Square Feet',
  ParkingSpots: 1,
};

const REFUSED = [
  'javascript:alert(document.domain)//',
  'JavaScript:alert(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'file:///etc/passwd',
  'ftp://files.example/a.jpg',
  '//homes.example/1',
  'homes.example/1',
  '/listing/1',
  'https://',
  'https:///path',
  'http:\\\\evil.example',
  'vbscript:msgbox(1)',
];

describe('Url and Images take http and https only', () => {
  it('accepts http and https in any case, with or without a path', () => {
    for (const url of ['https://homes.example/1', 'HTTP://homes.example', 'Https://homes.example:8443/a?b#c', 'http://127.0.0.1/x'])
      expect(isWebUrl(url), url).toBe(true);
  });

  it('refuses every other scheme, scheme-relative and relative values', () => {
    for (const url of REFUSED) expect(isWebUrl(url), url).toBe(false);
  });

  it('rejects a listing whose Url or any image is not http(s), on the fast path and in zod alike', () => {
    for (const bad of REFUSED) {
      for (const values of [
        { ...valid, Url: bad },
        { ...valid, Images: ['https://img.example/a.jpg', bad] },
      ]) {
        expect(quickValid(values), bad).toBe(false);
        const parsed = listingFieldsSchema.safeParse(values);
        expect(parsed.success, bad).toBe(false);
        expect(parsed.error?.issues[0]?.message).toBe('expected an http:// or https:// URL');
      }
    }
    expect(quickValid({ ...valid, Images: ['https://img.example/a.jpg'] })).toBe(true);
  });
});
