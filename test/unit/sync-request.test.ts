/**
 * A sync request that comes back from Redis (a schedule's payload) is parsed before the sync runs
 * (src/sync/sync-request.ts): what `schedule add` stored reads back as it was; anything else stops
 * with INVALID_INPUT naming every bad field, not a cast and a failure somewhere inside the sync.
 */
import { describe, expect, it } from 'vitest';
import { toSyncRequest } from '../../src/cli/input/sync-options.js';
import { errorCode } from '../../src/shared/errors.js';
import { parseStoredRequest } from '../../src/sync/sync-request.js';

const stored = toSyncRequest(
  {
    chatbot: 'bot',
    feed: 'https://feeds.example/acme.csv',
    profile: 'redfin',
    encoding: 'utf-8',
    keyType: 'MLSNumber',
    mode: 'mirror',
    deleteScope: 'managed',
    maxDeletes: '10%',
    maxRejected: '5%',
    pageSize: '100',
    force: false,
    delimiter: 'tab',
  },
  { dryRun: false, trigger: 'schedule' },
);

describe('a stored sync request', () => {
  it('reads back as schedule add stored it (through JSON, as BullMQ keeps it)', () => {
    expect(parseStoredRequest(JSON.parse(JSON.stringify(stored)), 'scheduled sync of bot')).toEqual(stored);
  });

  it('that is not one this version can run stops with INVALID_INPUT naming every bad field', () => {
    const thrown = (() => {
      try {
        parseStoredRequest(
          { ...stored, mode: 'sideways', feed: { source: 'x.csv', profile: 'zillow' }, maxRejectedPercent: '5%' },
          'scheduled sync of bot',
        );
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(errorCode(thrown)).toBe('INVALID_INPUT');
    const message = thrown instanceof Error ? thrown.message : '';
    expect(message).toMatch(/^scheduled sync of bot: the stored sync request is not one this version can run/);
    for (const field of ['mode', 'feed.profile', 'maxRejectedPercent']) expect(message).toContain(`${field}:`);
  });
});
