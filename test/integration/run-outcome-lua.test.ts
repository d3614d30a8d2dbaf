/**
 * The Lua that settles a run in Redis (SETTLE_RUN_LUA) against the one TypeScript rule it mirrors
 * (domain/run-outcome.ts `settledStatus`): the same run record, in every status and over job counts
 * drawn by fast-check, must settle the same way in both, and the lease go with a settled run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runFailed, settledStatus } from '../../src/domain/run-outcome.js';
import { SETTLE_RUN_LUA } from '../../src/store/run-lua.js';
import { RUN_STATUSES } from '../../src/store/run-types.js';
import { storePerTest } from '../helpers/store-per-test.js';

const SETTLE = `${SETTLE_RUN_LUA}
return settleRun(KEYS[1], KEYS[2], ARGV[1], tonumber(ARGV[2]))`;

const under = storePerTest('run-outcome');

interface Case {
  status: string | undefined;
  totalJobs: number;
  finishedJobs: number;
  failedJobs: number;
}

/** Runs the script on a run record holding `c`; what it returned, and the record and lease after. */
async function settleInRedis(c: Case, n: number): Promise<{ returned: unknown; status: string | null; leaseHeld: boolean }> {
  const { redis, prefix } = under;
  const runKey = `${prefix}:run:${n}`;
  const leaseKey = `${prefix}:lease:${n}`;
  const fields: Record<string, string> = {
    totalJobs: String(c.totalJobs),
    'j:finished': String(c.finishedJobs),
    'j:failed': String(c.failedJobs),
  };
  if (c.status !== undefined) fields.status = c.status;
  await redis.hset(runKey, fields);
  await redis.hset(leaseKey, { runId: `run-${n}`, beat: '0' });
  const returned = await redis.eval(SETTLE, 2, runKey, leaseKey, `run-${n}`, 1_000);
  const status = await redis.hget(runKey, 'status');
  const leaseHeld = (await redis.exists(leaseKey)) === 1;
  await redis.del(runKey, leaseKey);
  return { returned, status, leaseHeld };
}

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    status: fc.option(fc.constantFrom<string>(...RUN_STATUSES), { nil: undefined }),
    totalJobs: fc.nat(6),
    finishedJobs: fc.nat(7),
    failedShare: fc.nat(7),
  })
  .map(({ status, totalJobs, finishedJobs, failedShare }) => ({
    status,
    totalJobs,
    finishedJobs,
    failedJobs: Math.min(failedShare, finishedJobs),
  }));

describe('settling a run: the Lua script agrees with domain/run-outcome.ts', () => {
  it('settles as settledStatus says, for every status and job counts', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        n += 1;
        const expected = settledStatus(c);
        const got = await settleInRedis(c, n);
        expect(got.returned ?? undefined).toBe(expected);
        expect(got.status ?? undefined).toBe(expected ?? c.status);
        expect(got.leaseHeld).toBe(expected === undefined);
      }),
      { numRuns: 300 },
    );
    under.pass();
  });

  it.each<[Case, 'done' | 'failed' | undefined]>([
    [{ status: 'running', totalJobs: 3, finishedJobs: 3, failedJobs: 0 }, 'done'],
    [{ status: 'running', totalJobs: 3, finishedJobs: 3, failedJobs: 1 }, 'failed'],
    [{ status: 'running', totalJobs: 3, finishedJobs: 2, failedJobs: 1 }, undefined],
    [{ status: 'failed', totalJobs: 2, finishedJobs: 2, failedJobs: 0 }, 'done'],
    [{ status: 'stuck', totalJobs: 0, finishedJobs: 0, failedJobs: 0 }, 'done'],
    [{ status: 'cancelled', totalJobs: 1, finishedJobs: 1, failedJobs: 1 }, undefined],
    [{ status: 'enqueuing', totalJobs: 1, finishedJobs: 1, failedJobs: 0 }, undefined],
  ])('%o settles %s', async (c, expected) => {
    expect(settledStatus(c)).toBe(expected);
    expect((await settleInRedis(c, 0)).returned ?? undefined).toBe(expected);
    under.pass();
  });

  it('a settled status is a failure exactly when runFailed says so', () => {
    expect(runFailed({ status: 'failed', failedJobs: 0 })).toBe(true);
    expect(runFailed({ status: 'done', failedJobs: 0 })).toBe(false);
    expect(runFailed({ status: 'cancelled', failedJobs: 0 })).toBe(true);
    expect(runFailed({ status: 'stuck', failedJobs: 0 })).toBe(true);
    expect(runFailed({ status: 'refused', failedJobs: 0 })).toBe(false);
    expect(runFailed({ status: 'skipped', failedJobs: 0 })).toBe(false);
    expect(runFailed({ failedJobs: 2 })).toBe(true);
  });
});
