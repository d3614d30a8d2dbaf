import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareRunIds, jobId, MAX_JOB_ID_LENGTH, newRunId } from '../../src/domain/job-id.js';

const base = { chatbot: 'bot-demo', kind: 'create', keyType: 'MLSNumber', key: '11646057', runId: 'run-00mhx3k2q0-9f2c' };

/** What BullMQ accepts as a custom job id. */
function bullmqAccepts(id: string): boolean {
  return !id.includes(':') && !/^\d+$/.test(id) && id.length > 0;
}

const partsArb = fc.record({
  chatbot: fc.string({ maxLength: 30 }),
  kind: fc.constantFrom('create', 'update', 'delete'),
  keyType: fc.constantFrom('MLSNumber', 'URL', 'NewOaks'),
  key: fc.oneof(fc.string({ maxLength: 300, unit: 'binary' }), fc.stringMatching(/^\d{1,12}$/), fc.webUrl()),
  runId: fc.string({ maxLength: 40 }),
});

describe('jobId', () => {
  it('is readable for plain keys', () => {
    expect(jobId(base)).toBe('create.bot-demo.MLSNumber.11646057.run-00mhx3k2q0-9f2c');
  });

  it('escapes unsafe characters, never leaving a colon', () => {
    const id = jobId({ ...base, keyType: 'URL', key: 'https://x.test/a_b c' });
    expect(id).toBe('create.bot-demo.URL.https_3a_2f_2fx_2etest_2fa_5fb_20c.run-00mhx3k2q0-9f2c');
  });

  it('bounds the length by hashing a long key', () => {
    const id = jobId({ ...base, key: 'x'.repeat(500) });
    expect(id.length).toBeLessThanOrEqual(MAX_JOB_ID_LENGTH);
    expect(id).toMatch(/^create\.bot-demo\.MLSNumber\._sha1-[0-9a-f]{40}\.run-/);
  });

  it('is accepted by BullMQ, deterministic and bounded for any input', () => {
    fc.assert(
      fc.property(partsArb, (parts) => {
        const id = jobId(parts);
        expect(bullmqAccepts(id)).toBe(true);
        expect(id.length).toBeLessThanOrEqual(MAX_JOB_ID_LENGTH);
        expect(jobId({ ...parts })).toBe(id);
      }),
      { numRuns: 500 },
    );
  });

  it('gives distinct inputs distinct ids', () => {
    fc.assert(
      fc.property(partsArb, partsArb, (a, b) => {
        const same = a.chatbot === b.chatbot && a.kind === b.kind && a.keyType === b.keyType && a.key === b.key && a.runId === b.runId;
        expect(jobId(a) === jobId(b)).toBe(same);
      }),
      { numRuns: 500 },
    );
    const tricky = [
      { ...base, chatbot: 'a.b', key: 'c' },
      { ...base, chatbot: 'a', key: 'b.c' },
      { ...base, key: 'a_2eb' },
      { ...base, key: 'a.b' },
    ];
    expect(new Set(tricky.map(jobId)).size).toBe(tricky.length);
  });
});

describe('run ids', () => {
  it('sort by time as text', () => {
    const early = newRunId(1_000, 'ff');
    const late = newRunId(1_700_000_000_000, '00');
    expect(early).toBe('run-00000000rs-ff');
    expect(compareRunIds(early, late)).toBeLessThan(0);
    fc.assert(
      fc.property(fc.nat({ max: 36 ** 10 - 1 }), fc.nat({ max: 36 ** 10 - 1 }), (a, b) => {
        expect(Math.sign(compareRunIds(newRunId(a, 'ab'), newRunId(b, 'ab')))).toBe(Math.sign(a - b));
      }),
    );
  });

  it('reject a bad clock or random part', () => {
    expect(() => newRunId(-1, 'ab')).toThrow(RangeError);
    expect(() => newRunId(1.5, 'ab')).toThrow(RangeError);
    expect(() => newRunId(36 ** 10, 'ab')).toThrow(RangeError);
    expect(() => newRunId(1, 'xyz')).toThrow(RangeError);
  });
});
