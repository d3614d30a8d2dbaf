/**
 * What a dry run shows of its plan: the text summary lists, per field, how many listings change
 * with three samples, and each field the plan empties on held values with the guard's verdict;
 * the --report files carry the same, the CSV with before → after on every update line.
 */
import { describe, expect, it } from 'vitest';
import type { PlanInMemory } from '../../src/domain/plan.js';
import type { SyncSummary } from '../../src/store/run-summary.js';
import { formatSummary } from '../../src/sync/format-summary.js';
import { outcomeCsv, outcomeJson } from '../../src/sync/report.js';
import type { SyncOutcome } from '../../src/sync/summary.js';
import { listing } from '../helpers/planner-fixture.js';

const summary: SyncSummary = {
  runId: 'run-1',
  chatbot: 'bot',
  dryRun: true,
  trigger: 'cli',
  startedAt: '2026-11-21T02:00:00.000Z',
  feed: {
    source: 'feed.csv',
    profile: 'redfin',
    rows: 12,
    valid: 12,
    rejected: 0,
    excluded: 0,
    duplicates: 0,
    filledDefaults: { Bedrooms: 6 },
  },
  remote: { listings: 12, virtualCount: 12, complete: true, incompleteReasons: [], duplicates: 0, unkeyed: 0 },
  plan: { create: 0, update: 12, delete: 0, unchanged: 0, held: 0 },
  changes: [
    {
      field: 'Bedrooms',
      count: 6,
      samples: [
        { key: 'K1', from: 3, to: 0 },
        { key: 'K2', from: 2, to: 0 },
        { key: 'K3', from: 4, to: 0 },
      ],
    },
    { field: 'SalePrice', count: 1, samples: [{ key: 'K7', from: 350000, to: 355000 }] },
    { field: 'Description', count: 1, samples: [{ key: 'K8', from: 'x'.repeat(80) }] },
  ],
  guard: { ok: false, reasons: ['The plan would empty Bedrooms on 6 listings of the 12 that hold it (50%), …'], forced: false },
  wipes: {
    maxWipes: '10%',
    allowWipe: ['Description'],
    fields: [
      { field: 'Bedrooms', count: 6, holders: 12, verdict: 'refused', samples: [{ key: 'K1', from: 3, to: 0, filled: true }] },
      { field: 'Description', count: 1, holders: 12, verdict: 'within', samples: [{ key: 'K8', from: 'x'.repeat(80) }] },
    ],
  },
};

describe('the text summary', () => {
  const lines = formatSummary(summary).split('\n');

  it('lists per field how many listings change, with three samples (key, before → after) and how many more', () => {
    const start = lines.findIndex((line) => line.startsWith('changes '));
    expect(lines.slice(start, start + 3)).toEqual([
      'changes Bedrooms: 6 listings, e.g. K1 3 → 0; K2 2 → 0; K3 4 → 0 (and 3 more)',
      '        SalePrice: 1 listing, e.g. K7 350000 → 355000',
      `        Description: 1 listing, e.g. K8 ${'x'.repeat(39)}… → (empty)`,
    ]);
    expect(lines[start - 1]).toMatch(/^plan {4}/);
  });

  it('names each field the plan empties with its count, holders and verdict (a refused one after the guard says why)', () => {
    const start = lines.findIndex((line) => line.startsWith('wipes '));
    expect(lines.slice(start, start + 2)).toEqual([
      'wipes   Bedrooms: emptied on 6 of the 12 listings that hold it, REFUSED (see the guard)',
      `        Description: emptied on 1 of the 12 listings that hold it, within --max-wipes; e.g. K8 ${'x'.repeat(39)}… → (empty)`,
    ]);
    expect(lines.findIndex((line) => line.startsWith('guard '))).toBeLessThan(start);
  });

  it('shows neither block for a run without changes (a summary recorded before they were counted too)', () => {
    const { changes: _c, wipes: _w, ...older } = summary;
    const text = formatSummary({ ...older, changes: [], wipes: { maxWipes: '10%', allowWipe: [], fields: [] } });
    expect(text).not.toMatch(/^(changes|wipes)/m);
    expect(formatSummary(older)).not.toMatch(/^(changes|wipes)/m);
  });
});

describe('the --report files', () => {
  const plan: PlanInMemory = {
    chatbot: 'bot',
    keyType: 'MLSNumber',
    mode: 'mirror',
    deleteScope: 'managed',
    creates: [],
    updates: [
      {
        key: 'K7',
        listing: listing('K7', { SalePrice: 355000 }),
        hash: 'h',
        remoteId: '7',
        changes: [
          { field: 'SalePrice', from: 350000, to: 355000 },
          { field: 'Images', from: ['a.jpg'], to: undefined },
        ],
      },
    ],
    deletes: [],
    unchanged: 0,
  };
  const outcome: SyncOutcome = { summary, plan, rejected: [], remoteDuplicates: [], remoteUnkeyed: [] };

  it('CSV: every update line shows the field before → after', () => {
    const rows = outcomeCsv(outcome).split('\r\n');
    expect(rows).toContain('update,K7,MLSNumber,SalePrice,350000,355000,,');
    expect(rows).toContain('update,K7,MLSNumber,Images,"[""a.jpg""]",,,');
  });

  it('JSON: the summary with its per-field changes and wipes, and each update with its changes', () => {
    const report = JSON.parse(outcomeJson(outcome)) as { summary: SyncSummary; plan: { updates: Array<{ changes: unknown[] }> } };
    expect(report.summary.changes).toEqual(summary.changes);
    expect(report.summary.wipes).toEqual(summary.wipes);
    expect(report.plan.updates[0]?.changes).toEqual([
      { field: 'SalePrice', from: 350000, to: 355000 },
      { field: 'Images', from: ['a.jpg'] },
    ]);
  });
});
