/**
 * `listing-sync doctor`: what the Redis of this installation holds (memory and keys by kind,
 * under the prefix), whether its settings keep that data safe (maxmemory-policy noeviction, AOF
 * with appendfsync everysec), and whether retention keeps up. Exit 0 without warnings, 1 with.
 */
import type { Command } from 'commander';
import type { ConfigFlags } from '../../config.js';
import { displayRedis } from '../../config-display.js';
import { closeConnection, connectProducer, createProducerConnection } from '../../queue/connection.js';
import { buildRedisReport } from '../../store/redis-report.js';
import { configFromCli } from '../config-from-cli.js';
import { formatRedisReport } from '../doctor-format.js';
import { EXIT } from '../exit-codes.js';
import type { CommandHost } from '../host.js';
import { printJson } from '../io.js';
import { addSharedFlags } from '../shared-flags.js';

interface DoctorFlags extends Pick<ConfigFlags, 'redisUrl' | 'redisClusterNodes' | 'prefix'> {
  json?: boolean;
}

/** Registers `doctor`. */
export function registerDoctorCommands(program: Command, host: CommandHost): void {
  const command = program
    .command('doctor')
    .description('report Redis memory by kind of key, the eviction policy and AOF, and warn (exit 1) about what needs fixing');
  addSharedFlags(command, ['redisUrl', 'redisClusterNodes', 'prefix']);
  addSharedFlags(command, ['json'], { json: 'the report' }).action((flags: DoctorFlags) =>
    host.run(async () => {
      const config = configFromCli(flags, host.io);
      // Why a bare producer connection rather than openQueueContext: opening BullMQ queues writes
      // their meta keys, and the doctor must only read. Fail-fast: a down Redis is one error line.
      const redis = await connectProducer(createProducerConnection(config.redis));
      host.io.releases.push('Redis connection', () => closeConnection(redis));
      const { keepDays, keepRuns } = config.retention;
      const report = await buildRedisReport(redis, config.redis.prefix, { keepDays, keepRuns }, Date.now());
      const shownUrl = displayRedis(config.redis);
      if (flags.json === true) printJson(host.io, { redis: shownUrl, ...report });
      else host.io.stdout.write(formatRedisReport(report, shownUrl));
      return report.warnings.length > 0 ? EXIT.failed : EXIT.ok;
    }),
  );
}
