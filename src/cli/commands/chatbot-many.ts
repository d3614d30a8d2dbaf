/**
 * `listing-sync chatbot edit --many settings.json`: bulk settings changes go through the queue
 * (one edit-chatbot job per chatbot), so they get the same retries, rate limits and failure
 * records as listing writes. Every entry is validated before anything is enqueued.
 */
import { randomBytes } from 'node:crypto';
import { chatbotSettingsSchema, type ChatbotSettings } from '../../api/schemas.js';
import type { Config } from '../../config.js';
import { newRunId } from '../../domain/job-id.js';
import { ListingSyncError } from '../../errors.js';
import { enqueueChatbotEdits } from '../../queue/enqueue.js';
import { waitForRun } from '../../sync/wait-for-run.js';
import type { Logger } from '../../logger.js';
import { chatbotNotFoundError, unknownChatbots } from '../../sync/snapshot.js';
import { createCliLogger, createClientFromConfig } from '../api-wiring.js';
import { configFromCli } from '../config-from-cli.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { CommandHost } from '../host.js';
import { printJson } from '../io.js';
import { createProgressBars } from '../progress.js';
import { createRecordedClient, jobSettings, openQueueContext, startConfiguredWorkers } from '../queue-wiring.js';
import { readJsonFile } from '../read-json-file.js';
import { describeIssues } from '../validate-input.js';

export interface ManyEditFlags {
  many: string;
  wait?: boolean;
  work?: boolean;
  json?: boolean;
}

const SETTINGS_FIELDS = Object.keys(chatbotSettingsSchema.shape);

/** Reads and validates the --many file: a JSON array of Edit bodies, each with its serialNumber. */
export async function readManyEdits(path: string): Promise<ChatbotSettings[]> {
  const content = await readJsonFile(path);
  if (!Array.isArray(content) || content.length === 0) {
    throw new ListingSyncError('INVALID_INPUT', `${path}: expected a non-empty JSON array of settings objects, each with its serialNumber`);
  }
  const problems: string[] = [];
  const edits: ChatbotSettings[] = [];
  const seen = new Set<string>();
  content.forEach((entry: unknown, index) => {
    const parsed = chatbotSettingsSchema.safeParse(entry);
    if (!parsed.success) {
      problems.push(`entry ${index + 1}: ${describeIssues(parsed.error.issues, entry, SETTINGS_FIELDS).join('; ')}`);
    } else if (seen.has(parsed.data.serialNumber)) {
      problems.push(`entry ${index + 1}: chatbot ${parsed.data.serialNumber} appears twice (merge its settings into one entry)`);
    } else {
      seen.add(parsed.data.serialNumber);
      edits.push(parsed.data);
    }
  });
  if (problems.length > 0) throw new ListingSyncError('INVALID_INPUT', `${path}: ${problems.join('; ')}`);
  return edits;
}

/**
 * Stops with one line (exit 2) when the service does not know some of the chatbots, before
 * anything is enqueued: otherwise each of their jobs fails on its own, "not found" after "not
 * found". Skipped when this process has no service address (an enqueue-only producer; the
 * workers' jobs report it then).
 */
async function requireKnownChatbots(config: Config, logger: Logger, edits: readonly ChatbotSettings[]): Promise<void> {
  if (config.api.baseUrl === undefined) return;
  const api = createClientFromConfig(config, logger, 'api');
  try {
    const serials = edits.map((edit) => edit.serialNumber);
    const unknown = await unknownChatbots(api, serials);
    if (unknown.length > 0) throw chatbotNotFoundError(unknown);
  } finally {
    await api.close();
  }
}

/** Enqueues one edit-chatbot job per entry; with --wait/--work waits for them. */
export async function runManyEdit(host: CommandHost, flags: ManyEditFlags): Promise<ExitCode> {
  const edits = await readManyEdits(flags.many);
  const config = configFromCli(flags, host.io);
  const logger = createCliLogger(config, host.io, flags.json === true);
  await requireKnownChatbots(config, logger, edits);
  // Waiting or working runs for long: carry on through a Redis restart ('session'); an enqueue fails fast.
  const ctx = await openQueueContext(config, flags.wait || flags.work ? 'session' : 'producer', logger);
  const client = flags.work ? createRecordedClient(config, logger, ctx.redis, { watch: ctx.watch }) : undefined;
  const workers = client ? await startConfiguredWorkers(config, client.api, ctx, logger).catch(async (thrown: unknown) => {
    await client.close();
    await ctx.close();
    throw thrown;
  }) : undefined;
  const bars = createProgressBars(host.io, flags.json);
  try {
    const runId = newRunId(Date.now(), randomBytes(4).toString('hex'));
    const label = edits.length === 1 ? (edits[0]?.serialNumber ?? '') : `${edits.length} chatbots`;
    await enqueueChatbotEdits(edits, { id: runId, chatbot: label, trigger: 'cli', forced: false, status: 'running', startedAt: Date.now() }, {
      writes: ctx.queues.writes, store: ctx.store, jobs: jobSettings(config),
    });
    const result: { runId: string; chatbots: string[]; edited?: number; failed?: number } = { runId, chatbots: edits.map((e) => e.serialNumber) };
    if (flags.wait || flags.work) {
      const counts = await waitForRun(ctx.store, runId, { onProgress: (c) => bars.update('edits', c.finishedJobs, c.totalJobs) });
      result.edited = counts.edited;
      result.failed = counts.failedJobs;
    }
    bars.stop();
    if (flags.json) printJson(host.io, result);
    else host.io.stdout.write(`run ${runId}: ${edits.length} chatbot edits enqueued${result.edited === undefined ? '' : `, ${result.edited} edited, ${result.failed} failed`}\n`);
    return (result.failed ?? 0) > 0 ? EXIT.failed : EXIT.ok;
  } finally {
    bars.stop();
    await workers?.close();
    await client?.close(); // flushes the last call metrics while Redis is still open
    await ctx.close();
  }
}
