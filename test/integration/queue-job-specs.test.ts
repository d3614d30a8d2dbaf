import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../src/net/backoff.js';
import { DEFAULT_RETRY_TABLE } from '../../src/api/retry-policy.js';
import { classifyError, describeFailure } from '../../src/queue/error-mapping.js';
import { queueHeld } from '../../src/queue/queue-hold.js';
import { jobCountOf, jobSpecs, jobSpecsOf, listingJobNameOf, perChatbotJobSpecs } from '../../jobs/plan-jobs.js';
import type { JobSpec } from '../../jobs/support/job-spec.js';
import { EDIT_CHATBOT as EDIT_CHATBOT_JOBS } from '../../jobs/edit-chatbot.js';
import { EDIT_KNOWLEDGE as EDIT_KNOWLEDGE_JOBS } from '../../jobs/edit-knowledge.js';
import { ApiError } from '../../src/api/errors.js';
import { listingHash, recordedHash } from '../../src/domain/hash.js';
import type { Plan } from '../../src/domain/plan.js';
import { sampleListing } from '../../src/sim/sample-listings.js';
import { openPlanSpool } from '../../src/sync/plan-spool.js';

function fields(i: number, overrides = {}) {
  const { SerialNumber: _s, ...rest } = sampleListing(i, overrides);
  return rest;
}

describe('plan → job specs', () => {
  const numeric = fields(1, { MLSNumber: '11646057' });
  const withColon = fields(2, { MLSNumber: 'A:1', Url: 'https://x.test/a:b' });
  const plan: Plan = {
    chatbot: 'bot:1',
    keyType: 'MLSNumber',
    mode: 'mirror',
    deleteScope: 'all',
    unchanged: 0,
    creates: [{ key: '11646057', listing: numeric }],
    updates: [{ key: 'A:1', listing: withColon, hash: listingHash(withColon), changes: [] }],
    deletes: [
      ...Array.from({ length: 5 }, (_, i) => ({
        key: `9${i}`,
        keyType: 'MLSNumber' as const,
        reason: 'gone' as const,
        listingKey: `9${i}`,
      })),
      { key: '777', keyType: 'NewOaks', reason: 'duplicate', listingKey: '11646057' },
    ],
  };
  const specs = jobSpecsOf(plan, 'run-0000000001-ab', 2);
  /** A listing's job is a write-listings batch of one (jobs/write-listings.ts): its listing, or the job itself for any other. */
  const own = (spec: JobSpec): { name: string; data: unknown } => {
    const [item] = spec.name === 'write-listings' ? (spec.data as { items: Array<{ id: string; name: string; data: unknown }> }).items : [];
    return item?.id === spec.id ? item : spec;
  };

  it('counts the jobs a plan becomes without building them (what the enqueue tells its progress bar)', () => {
    for (const batchSize of [1, 2, 3, 5, 100])
      expect(jobCountOf(plan, batchSize)).toBe(jobSpecsOf(plan, 'run-0000000001-ab', batchSize).length);
  });

  it('gives ids BullMQ accepts (no ":" and never all digits), deterministic per run', () => {
    for (const spec of specs) {
      expect(spec.id).not.toContain(':');
      expect(spec.id).not.toMatch(/^\d+$/);
    }
    expect(new Set(specs.map((s) => s.id)).size).toBe(specs.length);
    expect(jobSpecsOf(plan, 'run-0000000001-ab', 2).map((s) => s.id)).toEqual(specs.map((s) => s.id));
    expect(jobSpecsOf(plan, 'run-0000000002-ab', 2).map((s) => s.id)).not.toEqual(specs.map((s) => s.id));
  });

  it('name their job in their id (what `jobs find` shows once a completed job left the queue)', () => {
    for (const spec of specs) expect(listingJobNameOf(spec.id)).toBe(own(spec).name);
    expect(listingJobNameOf('edit-chatbot.bot.chatbot.bot.run-0000000001-ab')).toBe('');
  });

  it('a plan whose creates and updates were spooled to a file yields the same jobs, as often as it is read', () => {
    const spool = openPlanSpool(tmpdir());
    try {
      for (const create of plan.creates) spool.addCreate(create);
      for (const update of plan.updates) spool.addUpdate(update);
      const spooled: Plan = { ...plan, ...spool.finish() };
      expect([...jobSpecs(spooled, 'run-0000000001-ab', 2)]).toEqual(specs);
      expect([...jobSpecs(spooled, 'run-0000000001-ab', 2)]).toEqual(specs);
    } finally {
      spool.close();
    }
  });

  it('carries the exact payload with run, chatbot and key, and batches deletes by key type', () => {
    expect(specs.map((s) => own(s).name)).toEqual([
      'create-listing',
      'update-listing',
      'delete-listings',
      'delete-listings',
      'delete-listings',
      'delete-listings',
    ]);
    expect(specs[0]?.name).toBe('write-listings');
    expect(own(specs[0] as JobSpec).data).toMatchObject({
      runId: 'run-0000000001-ab',
      chatbot: 'bot:1',
      key: '11646057',
      // The create's content hash and field digests are taken here, from the listing as the feed gave it (SerialNumber aside).
      hash: recordedHash(numeric),
      listing: { ...numeric, SerialNumber: 'bot:1' },
    });
    expect(own(specs[1] as JobSpec).data).toMatchObject({ update: { Key: 'A:1', KeyType: 'MLSNumber', SerialNumber: 'bot:1' } });
    const deletes = specs.slice(2).map((s) => s.data as { keys: string[]; deleteKeyType: string; ledgerKeys: string[] });
    expect(deletes.map((d) => d.keys)).toEqual([['90', '91'], ['92', '93'], ['94'], ['777']]);
    expect(deletes[3]).toMatchObject({ deleteKeyType: 'NewOaks', ledgerKeys: [] });
    expect(JSON.stringify(specs)).not.toMatch(/secret|session|authorization/i);
  });
});

describe('bulk edits → one job per chatbot', () => {
  const edits = [
    { serialNumber: 'bot:a', text: 'About us' },
    { serialNumber: 'bot-b', EnableSyncSiteMap: true, SyncSiteMapDays: 7 as const },
  ];
  const specs = perChatbotJobSpecs(EDIT_KNOWLEDGE_JOBS, edits, 'run-0000000001-ab');

  it('carries each body whole under its kind, run and chatbot', () => {
    expect(specs.map((s) => s.name)).toEqual(['edit-knowledge', 'edit-knowledge']);
    expect(specs.map((s) => s.data)).toEqual(edits.map((edit) => ({ runId: 'run-0000000001-ab', chatbot: edit.serialNumber, edit })));
    const settings = perChatbotJobSpecs(EDIT_CHATBOT_JOBS, [{ serialNumber: 'bot:a', Temperature: 1 }], 'run-0000000001-ab');
    expect(settings[0]).toMatchObject({ name: 'edit-chatbot', data: { settings: { serialNumber: 'bot:a', Temperature: 1 } } });
  });

  it('gives ids fixed by kind, chatbot and run: the same run enqueued again adds nothing, another kind or run does', () => {
    for (const spec of specs) expect(spec.id).not.toContain(':');
    expect(new Set(specs.map((s) => s.id)).size).toBe(2);
    const changedBodies = edits.map((edit) => ({ ...edit, text: 'changed' }));
    expect(perChatbotJobSpecs(EDIT_KNOWLEDGE_JOBS, changedBodies, 'run-0000000001-ab').map((s) => s.id)).toEqual(specs.map((s) => s.id));
    expect(perChatbotJobSpecs(EDIT_KNOWLEDGE_JOBS, edits, 'run-0000000002-ab').map((s) => s.id)).not.toContain(specs[0]?.id);
    const settingsIds = perChatbotJobSpecs(EDIT_CHATBOT_JOBS, [{ serialNumber: 'bot:a' }], 'run-0000000001-ab').map((s) => s.id);
    expect(settingsIds).toEqual(['edit-chatbot.bot_3aa.chatbot.bot_3aa.run-0000000001-ab']);
    expect(specs.map((s) => s.id)).not.toContain(settingsIds[0]);
  });
});

describe('retry delays and error mapping', () => {
  it('backs off exponentially with full jitter under a cap', () => {
    const settings = { baseMs: 100, maxMs: 1000 };
    expect(backoffDelay(1, settings, () => 0.999)).toBe(99);
    expect(backoffDelay(3, settings, () => 0.999)).toBe(399);
    expect(backoffDelay(20, settings, () => 0.999)).toBe(999);
    expect(backoffDelay(5, settings, () => 0)).toBe(0);
  });

  it('keeps the envelope Code and Message of a non-retryable failure, and tells the kinds apart', () => {
    const notFound = new ApiError('ENVELOPE_FAILURE', 'envelope Code 400', {
      endpoint: 'createListing',
      phase: 'sent',
      envelopeCode: 400,
      envelopeMessage: 'Status: must be one of Active, PreOnMarket, Sold',
    });
    expect(classifyError(notFound, DEFAULT_RETRY_TABLE)).toBe('fatal');
    expect(describeFailure(notFound)).toEqual({
      code: 'ENVELOPE_FAILURE 400',
      message: 'Status: must be one of Active, PreOnMarket, Sold',
    });
    expect(
      classifyError(new ApiError('HTTP_STATUS', '503', { endpoint: 'createListing', phase: 'sent', status: 503 }), DEFAULT_RETRY_TABLE),
    ).toBe('retry');
    expect(
      classifyError(
        new ApiError('ENVELOPE_FAILURE', '429', { endpoint: 'createListing', phase: 'sent', envelopeCode: 429 }),
        DEFAULT_RETRY_TABLE,
      ),
    ).toBe('rate-limited');
    expect(
      classifyError(new ApiError('AUTH_FAILED', 'no', { endpoint: 'createListing', phase: 'sent', status: 401 }), DEFAULT_RETRY_TABLE),
    ).toBe('auth');
    expect(classifyError(new Error('Connection is closed.'), DEFAULT_RETRY_TABLE)).toBe('retry');
    // A call held back by the queue's hold while its process stops was never sent: put back, no attempt used.
    expect(classifyError(queueHeld(), DEFAULT_RETRY_TABLE)).toBe('held');
  });
});
