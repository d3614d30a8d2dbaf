/** The API client's addresses as undici's dispatcher takes them: origin, and path with the query. */
import { describe, expect, it } from 'vitest';
import { requestTargets } from '../../src/api/request-target.js';

describe('request targets', () => {
  it('splits an address into origin and path, keeping a base path and the query', () => {
    const targetOf = requestTargets();
    expect(targetOf('https://api.example.com:8443/v2/RealEstate/Create')).toEqual({
      origin: 'https://api.example.com:8443',
      path: '/v2/RealEstate/Create',
    });
    expect(targetOf('http://127.0.0.1:3000/tables/list?code=p%201')).toEqual({
      origin: 'http://127.0.0.1:3000',
      path: '/tables/list?code=p%201',
    });
    expect(targetOf('https://example.com')).toEqual({ origin: 'https://example.com', path: '/' });
  });

  it('parses each address once and stays correct past its bound', () => {
    const targetOf = requestTargets();
    const first = targetOf('https://example.com/a');
    expect(targetOf('https://example.com/a')).toBe(first);
    for (let i = 0; i < 200; i += 1) expect(targetOf(`https://example.com/t/${i}`).path).toBe(`/t/${i}`);
    expect(targetOf('https://example.com/a')).toEqual(first);
  });

  it('refuses an address that is not absolute, as the request would have', () => {
    expect(() => requestTargets()('/relative/only')).toThrow();
  });
});
