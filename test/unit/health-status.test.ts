/** The health status machine: which status runs put a chatbot in, and which changes are announced. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS, deriveHealth, type RunFacts } from '../../src/domain/health/status.js';
import { transition, type HealthState } from '../../src/domain/health/transition.js';

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 0, 10, 12);

function run(id: string, status: string, endedHoursAgo: number, extra: Partial<RunFacts> = {}): RunFacts {
  const finishedAt = NOW - endedHoursAgo * HOUR;
  return {
    runId: id,
    status,
    startedAt: finishedAt - 60_000,
    finishedAt,
    counts: { created: 0, updated: 0, deleted: 0, failed: 0 },
    guardReasons: [],
    ...extra,
  };
}

describe('deriveHealth', () => {
  it('knows nothing before a run ended', () => {
    expect(deriveHealth([run('r1', 'running', 0)], NOW, DEFAULT_THRESHOLDS)).toBeUndefined();
  });

  it('takes the newest ended run', () => {
    const runs = [run('r3', 'running', 0), run('r2', 'refused', 1, { guardReasons: ['too many deletes'] }), run('r1', 'done', 2)];
    expect(deriveHealth(runs, NOW, DEFAULT_THRESHOLDS)).toMatchObject({
      status: 'refused',
      run: { runId: 'r2' },
      reasons: ['too many deletes'],
    });
  });

  it.each([
    ['skipped', run('r', 'skipped', 1, { skippedReason: 'busy' }), 'skipped'],
    ['stuck', run('r', 'stuck', 1), 'failed'],
    ['cancelled', run('r', 'cancelled', 1), 'failed'],
    ['failed jobs', run('r', 'done', 1, { counts: { created: 1, updated: 0, deleted: 0, failed: 2 } }), 'failed'],
    ['budget', run('r', 'done', 1, { budgetExhausted: 'budget of 100 requests/day used' }), 'budget'],
    ['done', run('r', 'done', 1), 'healthy'],
  ])('%s', (_name, facts, status) => {
    expect(deriveHealth([facts], NOW, DEFAULT_THRESHOLDS)?.status).toBe(status);
  });

  it('counts rejected rows only past --failed-rows', () => {
    const facts = run('r', 'done', 1, { feed: { rows: 100, rejected: 6 } });
    expect(deriveHealth([facts], NOW, DEFAULT_THRESHOLDS)?.status).toBe('healthy');
    expect(deriveHealth([facts], NOW, { ...DEFAULT_THRESHOLDS, failedRowsPercent: 5 })?.status).toBe('failed');
    expect(deriveHealth([facts], NOW, { ...DEFAULT_THRESHOLDS, failedRowsPercent: 10 })?.status).toBe('healthy');
  });

  it('is stale when the last successful run is older than the threshold, but a failing chatbot stays failed', () => {
    expect(deriveHealth([run('r1', 'done', 27)], NOW, DEFAULT_THRESHOLDS)).toMatchObject({ status: 'stale', run: { runId: 'r1' } });
    expect(deriveHealth([run('r1', 'done', 25)], NOW, DEFAULT_THRESHOLDS)?.status).toBe('healthy');
    expect(deriveHealth([run('r2', 'failed', 27), run('r1', 'done', 50)], NOW, DEFAULT_THRESHOLDS)?.status).toBe('failed');
  });
});

describe('transition', () => {
  const healthy = (runId: string): HealthState => ({ status: 'healthy', since: NOW - HOUR, runId, streak: 1 });

  it('says nothing for a first healthy run, but stores it', () => {
    const change = transition(undefined, { status: 'healthy', run: run('r1', 'done', 0), reasons: [] }, NOW);
    expect(change?.event).toBeUndefined();
    expect(change?.next).toMatchObject({ status: 'healthy', runId: 'r1', streak: 1 });
  });

  it('announces a first run that is not healthy', () => {
    expect(transition(undefined, { status: 'refused', run: run('r1', 'refused', 0), reasons: [] }, NOW)?.event).toBe('refused');
  });

  it('announces a change once, a repeat never, and a return to healthy as recovered', () => {
    const refused = transition(healthy('r1'), { status: 'refused', run: run('r2', 'refused', 0), reasons: [] }, NOW);
    expect(refused).toMatchObject({ event: 'refused', changeId: 'refused.r2' });
    const next = refused?.next as HealthState;
    const repeat = transition(next, { status: 'refused', run: run('r3', 'refused', 0), reasons: [] }, NOW);
    expect(repeat?.event).toBeUndefined();
    expect(repeat?.next.streak).toBe(2);
    expect(transition(next, { status: 'refused', run: run('r2', 'refused', 0), reasons: [] }, NOW)).toBeUndefined();
    expect(transition(next, { status: 'healthy', run: run('r4', 'done', 0), reasons: [] }, NOW)?.event).toBe('recovered');
  });
});

describe('a service outage', () => {
  const outage = { since: NOW - 60_000, reason: 'NETWORK: createListing: connection reset' };

  it('makes a chatbot whose newest run is still going service-down, and leaves others as their runs say', () => {
    const going = [run('r2', 'running', 0), run('r1', 'done', 2)];
    expect(deriveHealth(going, NOW, DEFAULT_THRESHOLDS, outage)).toMatchObject({
      status: 'service-down',
      run: { runId: 'r2' },
      since: outage.since,
      reasons: [expect.stringContaining('the service is down since') as string],
    });
    expect(deriveHealth([run('r1', 'done', 2)], NOW, DEFAULT_THRESHOLDS, outage)).toMatchObject({ status: 'healthy' });
    expect(deriveHealth(going, NOW, DEFAULT_THRESHOLDS)).toMatchObject({ status: 'healthy', run: { runId: 'r1' } });
  });

  it('announces service-down once per outage, then recovered when the run ends well', () => {
    const healthy: HealthState = { status: 'healthy', since: NOW - 2 * HOUR, runId: 'r1', streak: 1 };
    const down = transition(healthy, { status: 'service-down', run: run('r2', 'running', 0), since: outage.since, reasons: [] }, NOW);
    expect(down).toMatchObject({ event: 'service-down', changeId: `service-down.${outage.since}`, next: { since: outage.since } });
    if (down === undefined) throw new Error('no change');
    // Still down at the next evaluation: nothing new to say.
    expect(
      transition(down.next, { status: 'service-down', run: run('r2', 'running', 0), since: outage.since, reasons: [] }, NOW),
    ).toBeUndefined();
    // A second outage during the same run is a change of its own.
    expect(transition(healthy, { status: 'service-down', run: run('r2', 'running', 0), since: NOW, reasons: [] }, NOW)?.changeId).toBe(
      `service-down.${NOW}`,
    );
    const back = transition(down.next, { status: 'healthy', run: run('r2', 'done', 0), reasons: [] }, NOW);
    expect(back).toMatchObject({ event: 'recovered', changeId: 'healthy.r2' });
  });
});
