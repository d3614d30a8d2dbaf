/**
 * `listing-sync worker`: runs workers until SIGINT/SIGTERM, then stops taking jobs, lets those in
 * flight finish and exits. Client, Redis and workers are on the release stack; the workers are
 * closed here first, on the signal, so the log says when they are done.
 */
import { Option, type Command } from 'commander';
import { requireApiBase, type ConfigFlags } from '../../config/config.js';
import { createCliLogger } from '../wiring/api-wiring.js';
import { configFromCli } from '../input/config-from-cli.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { CommandHost, RegisterCommands } from '../host.js';
import { wholeNumber } from '../input/option-values.js';
import { queueContextOnStack, recordedClientOnStack, workersOnStack } from '../wiring/on-stack.js';
import { addSharedFlags, MEDIA_FLAGS, REDIS_FLAGS, WORKER_LIMIT_FLAGS } from '../input/shared-flags.js';

interface WorkerFlags extends ConfigFlags {
  json?: boolean;
  lockDurationMs?: string;
  stalledIntervalMs?: string;
}

async function runWorker(host: CommandHost, flags: WorkerFlags): Promise<ExitCode> {
  const config = configFromCli(flags, host.io);
  const lockDurationMs = wholeNumber(flags.lockDurationMs, '--lock-duration-ms', 100);
  const stalledIntervalMs = wholeNumber(flags.stalledIntervalMs, '--stalled-interval-ms', 100);
  const logger = createCliLogger(config, host.io, flags.json === true);
  requireApiBase(config); // a missing API_BASE_URL fails before Redis is touched
  const stopping = new AbortController();
  host.io.onShutdown(() => stopping.abort());
  // 'worker': a daemon waits for Redis, also when it is down at start (one line per interval).
  const ctx = await queueContextOnStack(host.io, config, 'worker', logger);
  const api = recordedClientOnStack(host.io, config, logger, ctx);
  const stall = {
    ...(lockDurationMs === undefined ? {} : { lockDurationMs }),
    ...(stalledIntervalMs === undefined ? {} : { stalledIntervalMs }),
  };
  const workers = await workersOnStack(host.io, config, api, ctx, logger, stall, stopping.signal).catch((thrown: unknown) => {
    if (stopping.signal.aborted) return undefined; // stopped while waiting for Redis: a clean stop
    throw thrown;
  });
  if (workers === undefined) {
    logger.info('stopped before Redis answered: no job was taken');
    return EXIT.ok;
  }
  await new Promise<void>((resolve) =>
    stopping.signal.aborted ? resolve() : stopping.signal.addEventListener('abort', () => resolve(), { once: true }),
  );
  logger.info(
    ctx.watch.isUp()
      ? 'shutting down: finishing jobs in flight'
      : 'shutting down while Redis is not answering: jobs in flight are picked up again once it answers',
  );
  await workers.close();
  logger.info('workers closed');
  return EXIT.ok;
}

export const registerWorkerCommands: RegisterCommands = (program: Command, host: CommandHost) => {
  const worker = program.command('worker').description('run workers until SIGINT/SIGTERM, then finish the jobs in flight and exit');
  addSharedFlags(worker, [...REDIS_FLAGS.filter((name) => name !== 'json'), 'apiBaseUrl', 'siteUrl', ...WORKER_LIMIT_FLAGS, ...MEDIA_FLAGS])
    // Why kept but hidden: a worker prints no result, so --json only ever meant JSON log lines on a
    // terminal (LOG_FORMAT=json says so); scripts that pass it keep working.
    .addOption(new Option('--json', 'log lines as JSON (same as LOG_FORMAT=json)').hideHelp())
    .option('--lock-duration-ms <ms>', 'BullMQ lock duration (default 30000; tuning and tests)')
    .option('--stalled-interval-ms <ms>', 'BullMQ stalled-job check interval (default 15000; tuning and tests)')
    .action((flags: WorkerFlags) => host.run(() => runWorker(host, flags)));
};
