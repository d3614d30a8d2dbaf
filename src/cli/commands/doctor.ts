/**
 * `listing-sync doctor`: what the Redis of this installation holds (memory and keys by kind,
 * under the prefix), whether its settings keep that data safe (maxmemory-policy noeviction, AOF
 * with appendfsync everysec), and whether retention keeps up. Exit 0 without warnings, 1 with.
 * `--connect`: whether it is ready to run (doctor-connect.ts); exit 1 when any check fails.
 */
import type { Command } from 'commander';
import { redisReportOf } from '../wiring/doctor-redis.js';
import type { ConfigFlags } from '../../config/config.js';
import { displayRedis } from '../../config/config-display.js';
import { configFromCli } from '../input/config-from-cli.js';
import { formatRedisReport } from '../output/doctor-format.js';
import { LINKED_PHOTOS_LINE } from '../output/format-photos.js';
import { connectChecks } from '../wiring/doctor-connect.js';
import { formatChecks } from '../output/doctor-connect-format.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { CommandHost } from '../host.js';
import { printJson } from '../io.js';
import { addSharedFlags } from '../input/shared-flags.js';

interface DoctorFlags extends Pick<ConfigFlags, 'redisUrl' | 'redisClusterNodes' | 'prefix' | 'apiBaseUrl' | 'siteUrl'> {
  json?: boolean;
  connect?: boolean;
  chatbot?: string;
  randomCode?: string;
}

/** Chatbot and project the credential checks ask about when none is given: the service knows neither. */
const PROBE_CHATBOT = 'listing-sync-doctor-probe';
const PROBE_CODE = 'listing-sync-doctor-probe';

async function connectReport(host: CommandHost, flags: DoctorFlags): Promise<ExitCode> {
  const checks = await connectChecks(flags, host.io, {
    chatbot: flags.chatbot ?? PROBE_CHATBOT,
    randomCode: flags.randomCode ?? PROBE_CODE,
  });
  const ready = checks.every((check) => check.mark !== 'fail');
  if (flags.json === true) printJson(host.io, { ready, checks });
  else host.io.stdout.write(formatChecks(checks));
  return ready ? EXIT.ok : EXIT.failed;
}

/** Registers `doctor`. */
export function registerDoctorCommands(program: Command, host: CommandHost): void {
  const command = program
    .command('doctor')
    .description('report Redis memory by kind of key, the eviction policy and AOF, and warn (exit 1) about what needs fixing')
    .option('--connect', 'instead: check every setting, each API key (one call each), Redis and its persistence and eviction')
    .option('--chatbot <serial>', 'with --connect: the chatbot the key checks read (default: one the service does not know)')
    .option('--random-code <code>', 'with --connect: the project whose tables PROJECT_AUTH_TOKEN lists');
  addSharedFlags(command, ['redisUrl', 'redisClusterNodes', 'prefix']);
  addSharedFlags(command, ['apiBaseUrl', 'siteUrl'], { when: 'with --connect' });
  addSharedFlags(command, ['json'], { json: 'the report' }).action((flags: DoctorFlags) =>
    host.run(async () => {
      if (flags.connect === true) return await connectReport(host, flags);
      const config = configFromCli(flags, host.io);
      const report = await redisReportOf(host.io, config);
      const shownUrl = displayRedis(config.redis);
      if (flags.json === true) printJson(host.io, { redis: shownUrl, ...report });
      else {
        const { store, baseUrl } = config.media;
        // Said once here, as in a run's summary: without a store the chatbot links the source's photo URLs.
        const photos = store === undefined ? LINKED_PHOTOS_LINE : `photos: hosted in ${store}, served at ${baseUrl ?? '-'}`;
        host.io.stdout.write(`${formatRedisReport(report, shownUrl)}${photos}\n`);
      }
      return report.warnings.length > 0 ? EXIT.failed : EXIT.ok;
    }),
  );
}
