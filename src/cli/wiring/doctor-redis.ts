/** `listing-sync doctor`'s look at Redis: a read-only connection (released with the command) and the report built from it. */
import type { Config } from '../../config/config.js';
import { closeConnection, connectProducer, createProducerConnection } from '../../queue/connection.js';
import { buildRedisReport, type RedisReport } from '../../store/redis-report.js';
import type { CliIo } from '../io.js';
import { describeTarget } from '../../queue/job-seal.js';
import { foreignTargetLines, readWaitingTargets } from '../../queue/waiting-targets.js';
import { sealingOf } from './job-seal-wiring.js';

/** The report, with which services the waiting jobs are for (docs/security-jobs.md) and this configuration's. */
export type DoctorReport = RedisReport & { jobTargets: { own?: string; waiting: Array<{ target: string; jobs: number; run: string }> } };

export async function redisReportOf(io: CliIo, config: Config): Promise<DoctorReport> {
  // Why a bare producer connection rather than openQueueContext: opening BullMQ queues writes
  // their meta keys, and the doctor must only read. Fail-fast: a down Redis is one error line.
  const redis = await connectProducer(createProducerConnection(config.redis));
  io.releases.push('Redis connection', () => closeConnection(redis));
  const { keepDays, keepRuns } = config.retention;
  const report = await buildRedisReport(redis, config.redis.prefix, { keepDays, keepRuns }, Date.now());
  const waiting = await readWaitingTargets(redis, config.redis.prefix);
  const seal = sealingOf(config);
  const own = 'missing' in seal ? undefined : seal.target;
  // A waiting job for another service than this configuration's: a worker configured like this one leaves it.
  const warnings = own === undefined ? [] : foreignTargetLines(waiting, own).map((message) => ({ code: 'JOB_TARGET' as const, message }));
  return {
    ...report,
    warnings: [...report.warnings, ...warnings],
    jobTargets: {
      ...(own === undefined ? {} : { own: describeTarget(own) }),
      waiting: waiting.map((entry) => ({ target: describeTarget(entry.target), jobs: entry.jobs, run: entry.run })),
    },
  };
}
