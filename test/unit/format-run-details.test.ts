/**
 * `runs show` says any stored run in words: an old or partial summary, a skipped run and a run
 * stuck or refused read as labelled values, never as JSON.
 */
import { describe, expect, it } from 'vitest';
import { runDetails } from '../../src/cli/output/format-run-details.js';
import { emptyCounts, type RunRecord } from '../../src/store/run-types.js';
import { readRunSummary } from '../../src/store/run-summary.js';

const base: RunRecord = {
  id: 'run-1',
  chatbot: 'bot-1',
  trigger: 'cli',
  forced: false,
  status: 'refused',
  startedAt: Date.parse('2026-05-01T10:00:00Z'),
  finishedAt: Date.parse('2026-05-01T10:03:20Z'),
  summary: null,
  counts: { ...emptyCounts(), retried: 2 },
  rejectedCount: 3,
};

describe('runDetails', () => {
  it('says a partial stored summary part by part, in words', () => {
    const summary = readRunSummary(
      JSON.stringify({
        guard: { ok: false, reasons: ['would delete 40 of 50 listings (max 10%)'], forced: false },
        feed: {
          source: 'feed.csv',
          profile: 'native',
          rows: 9,
          valid: 6,
          rejected: 3,
          excluded: 0,
          duplicates: 0,
          filledDefaults: { LotArea: 252 },
        },
        incompleteReasons: [],
      }),
    );
    const text = runDetails({ ...base, summary });
    expect(text).not.toMatch(/[{}[\]"]/);
    expect(text).toMatch(/^finished +2026-05-01T10:03:20.000Z \(took 3 min 20 s\)$/m);
    expect(text).toMatch(/^jobs +0 of 0 finished, 0 failed for good, 2 attempts retried$/m);
    expect(text).toMatch(/^rejected +3 feed rows/m);
    expect(text).toMatch(/^guard +ok false, reasons would delete 40 of 50 listings \(max 10%\), forced false$/m);
    expect(text).toContain('filled defaults lot area 252');
    expect(text).toMatch(/^incomplete reasons +none$/m);
  });

  it('says why a scheduled run was skipped', () => {
    const summary = readRunSummary(JSON.stringify({ skipped: 'chatbot bot-1 is being synced by run run-0' }));
    expect(runDetails({ ...base, status: 'skipped', summary })).toMatch(/^skipped +chatbot bot-1 is being synced by run run-0$/m);
  });
});
