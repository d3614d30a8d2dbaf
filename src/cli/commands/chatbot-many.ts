/**
 * The `--many FILE` form of `listing-sync chatbot edit` (settings) and `chatbot knowledge`
 * (knowledge bases): the flags, the file read, the queue and workers opened, the result printed.
 * The use case itself (validating, checking the chatbots, enqueuing one job per chatbot under one
 * run, waiting) is src/sync/chatbot-edits.ts.
 */
import type { Command } from 'commander';
import type { Config } from '../../config/config.js';
import { UsageError } from '../../shared/errors.js';
import type { Logger } from '../../runtime/logger.js';
import { enqueueManyEdits, requireKnownChatbots, validateManyEdits, waitForEdits, type ManyEditKind } from '../../sync/chatbot-edits.js';
import { createCliLogger, createClientFromConfig } from '../wiring/api-wiring.js';
import { configFromCli } from '../input/config-from-cli.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { CommandHost } from '../host.js';
import { printJson, type CliIo } from '../io.js';
import { createProgressBars } from '../output/progress.js';
import { queueContextOnStack, recordedClientOnStack, workersOnStack } from '../wiring/on-stack.js';
import { jobSettings } from '../wiring/queue-wiring.js';
import { readJsonFile } from '../input/read-json-file.js';
import { count } from '../../shared/counts.js';

export interface ManyEditFlags {
  many: string;
  wait?: boolean;
  work?: boolean;
  json?: boolean;
}

/**
 * Adds --many, --wait and --work of the bulk form of `kind` to `command` (the command adds the
 * Redis flags, `when: 'with --many'`, beside its own).
 */
export function addManyEditOptions<P extends { serialNumber: string }>(command: Command, kind: ManyEditKind<P>): Command {
  return command
    .option(`--many <${kind.file}>`, `bulk: a JSON array of ${kind.entries} (each with serialNumber), one queued job per chatbot`)
    .option('--wait', 'with --many: wait until every edit job finished')
    .option('--work', 'with --many: also run workers in this process (implies --wait)');
}

/**
 * Throws a usage error when a one-chatbot flag of `single` is given beside --many: the chatbots
 * and their edits come from the --many file.
 */
export function refuseBesideMany<O extends object>(options: O, single: ReadonlyArray<keyof O & string>): void {
  if (!single.some((name) => options[name] !== undefined)) return;
  const flags = single.map((name) => `--${name}`);
  const last = flags.pop() ?? '';
  throw new UsageError(`--many takes the chatbots from its file: leave out ${flags.length > 0 ? `${flags.join(', ')} and ${last}` : last}`);
}

/**
 * Reads and validates a --many file: a JSON array of `kind` bodies, each with its serialNumber,
 * each chatbot once. Every bad entry is named by its position in one INVALID_INPUT error.
 */
export async function readManyEdits<P extends { serialNumber: string }>(kind: ManyEditKind<P>, path: string): Promise<P[]> {
  return validateManyEdits(kind, path, await readJsonFile(path));
}

/**
 * The chatbots checked against the service before anything is enqueued. Skipped when this process
 * has no service address (an enqueue-only producer; the workers' jobs report it then).
 */
async function checkChatbots(io: CliIo, config: Config, logger: Logger, serials: readonly string[]): Promise<void> {
  if (config.api.baseUrl === undefined) return;
  const api = createClientFromConfig(config, logger, 'api');
  const release = io.releases.push('API client', () => api.close());
  try {
    await requireKnownChatbots(api, serials, config.api.retryTable);
  } finally {
    // Only needed for this check: the jobs make their calls through the workers' client.
    await release();
  }
}

/** Enqueues one `kind` job per entry of the --many file under one run; with --wait/--work waits for them. */
export async function runManyEdit<P extends { serialNumber: string }>(
  host: CommandHost,
  kind: ManyEditKind<P>,
  flags: ManyEditFlags,
): Promise<ExitCode> {
  const { io } = host;
  const edits = await readManyEdits(kind, flags.many);
  const chatbots = edits.map((edit) => edit.serialNumber);
  const config = configFromCli(flags, io);
  const logger = createCliLogger(config, io, flags.json === true);
  await checkChatbots(io, config, logger, chatbots);
  // Waiting or working runs for long: carry on through a Redis restart ('session'); an enqueue fails fast.
  const ctx = await queueContextOnStack(io, config, flags.wait || flags.work ? 'session' : 'producer', logger);
  if (flags.work) await workersOnStack(io, config, recordedClientOnStack(io, config, logger, ctx), ctx, logger, {}, undefined, false);
  const bars = createProgressBars(io, flags.json, logger);
  const runId = await enqueueManyEdits(kind, edits, { writes: ctx.queues.writes, store: ctx.store, jobs: jobSettings(config) });
  const result: { runId: string; chatbots: string[]; edited?: number; failed?: number } = { runId, chatbots };
  if (flags.wait || flags.work) {
    const waited = await waitForEdits(ctx.store, runId, (finished, total) => bars.update('edits', finished, total));
    result.edited = waited.edited;
    result.failed = waited.failed;
  }
  await bars.stop();
  if (flags.json) printJson(io, result);
  else
    io.stdout.write(
      `run ${runId}: ${count(edits.length)} ${kind.label} ` +
        `enqueued${result.edited === undefined ? '' : `, ${count(result.edited)} edited, ${count(result.failed ?? 0)} failed`}\n`,
    );
  return (result.failed ?? 0) > 0 ? EXIT.failed : EXIT.ok;
}
