import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonArraySplitter } from '../../src/feed/json-splitter.js';

function split(doc: string, cuts: readonly number[]): { records: unknown[]; meta: Record<string, unknown> } {
  const splitter = new JsonArraySplitter();
  const records: unknown[] = [];
  let start = 0;
  for (const cut of [...cuts].sort((a, b) => a - b).concat(doc.length)) {
    splitter.push(doc.slice(start, cut), (text) => records.push(JSON.parse(text)));
    start = cut;
  }
  splitter.end();
  return { records, meta: splitter.meta };
}

const record = fc.dictionary(
  fc.string({ maxLength: 6 }),
  fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constant(null),
    fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
  ),
  { maxKeys: 4 },
);

describe('JSON array splitter', () => {
  it('yields the same records as JSON.parse, however the text is cut (arrays and OData)', () => {
    fc.assert(
      fc.property(
        fc.array(record, { maxLength: 6 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.boolean(),
        (records, odata, cuts, pretty) => {
          const body = odata ? { '@odata.context': 'ctx', value: records, '@odata.nextLink': 'https://x/next' } : records;
          const doc = JSON.stringify(body, null, pretty ? 2 : undefined);
          const result = split(
            doc,
            cuts.map((cut) => cut % (doc.length + 1)),
          );
          expect(result.records).toEqual(JSON.parse(JSON.stringify(records)));
          if (odata) expect(result.meta).toEqual({ '@odata.context': 'ctx', '@odata.nextLink': 'https://x/next' });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps strings with brackets, braces, commas and escaped quotes intact', () => {
    const doc = '{"value":[{"a":"x,]}\\"{["},{"b":[1,{"c":"]"}]}],"@odata.nextLink":"n"}';
    expect(split(doc, [3, 11, 12, 20])).toEqual({ records: [{ a: 'x,]}"{[' }, { b: [1, { c: ']' }] }], meta: { '@odata.nextLink': 'n' } });
  });

  it('keeps escapes cut between two chunks: a backslash ending one chunk escapes the quote starting the next', () => {
    const doc = String.raw`[{"a":"q\"x\\","b":"\\\""},{"c":"\\"}]`;
    const whole = JSON.parse(doc) as unknown[];
    for (let cut = 1; cut < doc.length; cut += 1) expect(split(doc, [cut]).records).toEqual(whole);
    for (let cut = 1; cut + 1 < doc.length; cut += 1) expect(split(doc, [cut, cut + 1]).records).toEqual(whole);
  });

  it('refuses documents that are not a records array or were cut short', () => {
    expect(() => split('[{"a":1}', [])).toThrow('the JSON ends before it is closed');
    expect(() => split('{"items":[]}', [])).toThrow('no "value" array');
    expect(() => split('"text"', [])).toThrow('expected a JSON array');
    expect(() => split('[1] [2]', [])).toThrow('unexpected text after the end');
  });
});
