/**
 * The Redis watch's lines for errors BullMQ emits per job: a storm of the same fact (locks lost
 * in an outage, jobs whose record vanished from Redis) is one warning per interval that says
 * what follows, not a raw error line per job and move; any other error keeps its own line.
 */
import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/runtime/logger.js';
import { createRedisWatch } from '../../src/queue/redis-watch.js';

interface Line {
  level: number;
  msg: string;
  err?: string;
}

function watched(intervalMs: number): { report: (message: string) => void; lines: Line[]; advance: (ms: number) => void } {
  const lines: Line[] = [];
  let clock = 1_000_000;
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line) as Line) } });
  const watch = createRedisWatch(logger, { intervalMs, now: () => clock });
  return {
    report: (message) => watch.report(new Error(message), 'worker'),
    lines,
    advance: (ms) => void (clock += ms),
  };
}

describe('redis watch: per-job errors from BullMQ', () => {
  it('jobs gone from the queue: one warning per interval naming the reconciler, not a line per job and move', () => {
    const { report, lines, advance } = watched(5000);
    for (let job = 32; job < 40; job += 1) {
      report(`Missing key for job create.bot.MLSNumber.${job}.run-1. moveToFinished`);
      report(`Missing key for job create.bot.MLSNumber.${job}.run-1. moveToDelayed`);
      // BullMQ's other word for it: the record survived (its lock too) while the queue's lists went.
      report(`Job create.bot.MLSNumber.${job}.run-1 is not in the active state. moveToFinished`);
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, msg: expect.stringContaining('gone from the queue') as string });
    expect(lines[0]?.msg).toMatch(/reconciler records them as failed/);
    advance(5000);
    report('Missing key for job create.bot.MLSNumber.40.run-1. retryJob');
    expect(lines).toHaveLength(2);
  });

  it('tells its job-gone listeners of every such report (they make the reconciler hurry), and nothing else', () => {
    const logger = createLogger({ level: 'silent' });
    const watch = createRedisWatch(logger, { intervalMs: 5000, now: () => 0 });
    let heard = 0;
    const unsubscribe = watch.onJobGone(() => void (heard += 1));
    watch.report(new Error('Missing key for job create.bot.MLSNumber.1.run-1. moveToFinished'), 'worker');
    watch.report(new Error('Missing key for job create.bot.MLSNumber.2.run-1. moveToFinished'), 'worker');
    watch.report(new Error('Job create.bot.MLSNumber.5.run-1 is not in the active state. moveToFinished'), 'worker');
    watch.report(new Error('Missing lock for job create.bot.MLSNumber.3.run-1. moveToFinished'), 'worker');
    watch.report(new Error('ERR unknown command'), 'worker');
    expect(heard).toBe(3);
    unsubscribe();
    watch.report(new Error('Missing key for job create.bot.MLSNumber.4.run-1. moveToFinished'), 'worker');
    expect(heard).toBe(3);
  });

  it('locks lost and jobs gone are told apart; another error keeps its own error line', () => {
    const { report, lines } = watched(5000);
    report('Missing lock for job create.bot.MLSNumber.1.run-1. moveToFinished');
    report('Missing key for job create.bot.MLSNumber.2.run-1. moveToFinished');
    report('ERR unknown command');
    expect(lines.map((line) => [line.level, line.msg.split(' ').slice(0, 3).join(' ')])).toEqual([
      [40, 'jobs in flight'],
      [40, 'jobs in flight'],
      [50, 'worker error'],
    ]);
    expect(lines[0]?.msg).toMatch(/lost their lock/);
    expect(lines[1]?.msg).toMatch(/gone from the queue/);
    expect(lines[2]?.err).toBe('ERR unknown command');
  });

  it('a job called gone that finished after all (outcome recorded, queue intact) is said finished, not "gone"', async () => {
    const lines: Line[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line) as Line) } });
    const watch = createRedisWatch(logger, { intervalMs: 5000, now: () => 0 });
    const asked: string[] = [];
    watch.knowOutcomes((jobId) => {
      asked.push(jobId);
      return Promise.resolve(jobId.includes('.1.') ? 'created' : undefined);
    });
    let heard = 0;
    watch.onJobGone(() => void (heard += 1));
    watch.report(new Error('Missing key for job create.bot.MLSNumber.1.run-1. moveToFinished'), 'worker');
    watch.report(new Error('Job create.bot.MLSNumber.2.run-1 is not in the active state. moveToFinished'), 'worker');
    await vi.waitFor(() => expect(lines).toHaveLength(2));
    expect(asked).toEqual(['create.bot.MLSNumber.1.run-1', 'create.bot.MLSNumber.2.run-1']);
    expect(lines[0]).toMatchObject({
      level: 40,
      msg: expect.stringMatching(
        /^jobs in flight were finished already .*\(outcome recorded: created\): .*lock was lost.*nothing of theirs is lost$/,
      ) as string,
    });
    expect(lines[1]).toMatchObject({ level: 40, msg: expect.stringContaining('gone from the queue') as string });
    // The reconciler hurries either way: its own check finds nothing to record for a finished job.
    expect(heard).toBe(2);
  });

  it('a job called gone is said gone when its outcome cannot be looked up (Redis away again)', async () => {
    const lines: Line[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line) as Line) } });
    const watch = createRedisWatch(logger, { intervalMs: 5000, now: () => 0 });
    watch.knowOutcomes(() => Promise.reject(new Error('Connection is closed.')));
    watch.report(new Error('Missing key for job create.bot.MLSNumber.1.run-1. retryJob'), 'worker');
    await vi.waitFor(() => expect(lines).toHaveLength(1));
    expect(lines[0]?.msg).toMatch(/gone from the queue/);
  });

  it('a failed lock renewal alone says nothing at info level: the lost lock, if any, shows at the finish', () => {
    const { report, lines } = watched(5000);
    report('could not renew lock for job create.bot.MLSNumber.7.run-1');
    expect(lines).toEqual([]);
    report('Lock mismatch for job create.bot.MLSNumber.7.run-1. Cmd moveToFinished from active');
    expect(lines.map((line) => line.msg)).toEqual([expect.stringMatching(/^jobs in flight lost their lock/)]);
  });
});
