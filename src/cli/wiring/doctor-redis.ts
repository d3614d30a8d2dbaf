/** `listing-sync doctor`'s look at Redis: a read-only connection (released with the command) and the report built from it. */
import type { Config } from '../../config/config.js';
import { closeConnection, connectProducer, createProducerConnection } from '../../queue/connection.js';
import { buildRedisReport, type RedisReport } from '../../store/redis-report.js';
import type { CliIo } from '../io.js';

export async function redisReportOf(io: CliIo, config: Config): Promise<RedisReport> {
  // Why a bare producer connection rather than openQueueContext: opening BullMQ queues writes
  // their meta keys, and the doctor must only read. Fail-fast: a down Redis is one error line.
  const redis = await connectProducer(createProducerConnection(config.redis));
  io.releases.push('Redis connection', () => closeConnection(redis));
  const { keepDays, keepRuns } = config.retention;
  return buildRedisReport(redis, config.redis.prefix, { keepDays, keepRuns }, Date.now());
}
