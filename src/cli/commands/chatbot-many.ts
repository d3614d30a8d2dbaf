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
import { chatbotEditsRun } from '../../sync/run-records.js';
import { waitForRun } from '../../sync/wait-for-run.js';
import type { Logger } from '../../logger.js';
import { chatbotNotFoundError, unknownChatbots } from '../../sync/snapshot.js';
import { createCliLogger, createClientFromConfig } from '../api-wiring.js';
import { configFromCli } from '../config-from-cli.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { CommandHost } from '../host.js';
import { printJson, type CliIo } from '../io.js';
import { createProgressBars } from '../progress.js';
import { queueContextOnStack, recordedClientOnStack, workersOnStack } from '../on-stack.js';
import { jobSettings } from '../queue-wiring.js';
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
async function requireKnownChatbots(io: CliIo, config: Config, logger: Logger, edits: readonly ChatbotSettings[]): Promise<void> {
  if (config.api.baseUrl === undefined) return;
  const api = createClientFromConfig(config, logger, 'api');
  const release = io.releases.push('API client', () => api.close());
  try {
    const unknown = await unknownChatbots(
      api,
      edits.map((edit) => edit.serialNumber),
      { retryTable: config.api.retryTable },
    );
    if (unknown.length > 0) throw chatbotNotFoundError(unknown);
  } finally {
    // Only needed for this check: the jobs make their calls through the workers' client.
    await release();
  }
}

/** Enqueues one edit-chatbot job per entry; with --wait/--work waits for them. */
export async function runManyEdit(host: CommandHost, flags: ManyEditFlags): Promise<ExitCode> {
  const { io } = host;
  const edits = await readManyEdits(flags.many);
  const config = configFromCli(flags, io);
  const logger = createCliLogger(config, io, flags.json === true);
  await requireKnownChatbots(io, config, logger, edits);
  // Waiting or working runs for long: carry on through a Redis restart ('session'); an enqueue fails fast.
  const ctx = await queueContextOnStack(io, config, flags.wait || flags.work ? 'session' : 'producer', logger);
  if (flags.work) await workersOnStack(io, config, recordedClientOnStack(io, config, logger, ctx), ctx, logger);
  const bars = createProgressBars(io, flags.json);
  const run = chatbotEditsRun(
    edits.map((edit) => edit.serialNumber),
    newRunId(Date.now(), randomBytes(4).toString('hex')),
    Date.now(),
  );
  await enqueueChatbotEdits(edits, run, { writes: ctx.queues.writes, store: ctx.store, jobs: jobSettings(config) });
  const result: { runId: string; chatbots: string[]; edited?: number; failed?: number } = {
    runId: run.id,
    chatbots: edits.map((e) => e.serialNumber),
  };
  if (flags.wait || flags.work) {
    const counts = await waitForRun(ctx.store, run.id, { onProgress: (c) => bars.update('edits', c.finishedJobs, c.totalJobs) });
    result.edited = counts.edited;
    result.failed = counts.failedJobs;
  }
  await bars.stop();
  if (flags.json) printJson(io, result);
  else
    io.stdout.write(
      `run ${run.id}: ${edits.length} chatbot edits enqueued${result.edited === undefined ? '' : `, ${result.edited} edited, ${result.failed} failed`}\n`,
    );
  return (result.failed ?? 0) > 0 ? EXIT.failed : EXIT.ok;
}
