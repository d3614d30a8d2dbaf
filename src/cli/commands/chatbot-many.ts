/**
 * The `--many FILE` form of `listing-sync chatbot edit` (settings) and `chatbot knowledge`
 * (knowledge bases): bulk edits go through the queue, one job per chatbot under one run, so they
 * get the same retries, rate limits and failure records as listing writes. One path for every
 * per-chatbot kind (ManyEditKind): every entry is validated, and the chatbots checked, before
 * anything is enqueued.
 */
import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import type { z } from 'zod';
import { chatbotSettingsSchema, knowledgeEditSchema, type ChatbotSettings, type KnowledgeEdit } from '../../api/schemas.js';
import type { Config } from '../../config/config.js';
import { newRunId } from '../../domain/job-id.js';
import { ListingSyncError, UsageError } from '../../shared/errors.js';
import { enqueuePerChatbot } from '../../queue/enqueue.js';
import { EDIT_CHATBOT_JOBS, EDIT_KNOWLEDGE_JOBS, type PerChatbotJobKind } from '../../queue/job-specs.js';
import { chatbotEditsRun } from '../../sync/run-records.js';
import { waitForRun } from '../../sync/wait-for-run.js';
import type { Logger } from '../../runtime/logger.js';
import { chatbotNotFoundError, unknownChatbots } from '../../sync/snapshot.js';
import { createCliLogger, createClientFromConfig } from '../wiring/api-wiring.js';
import { configFromCli } from '../input/config-from-cli.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { CommandHost } from '../host.js';
import { printJson, type CliIo } from '../io.js';
import { createProgressBars } from '../output/progress.js';
import { queueContextOnStack, recordedClientOnStack, workersOnStack } from '../wiring/on-stack.js';
import { jobSettings } from '../wiring/queue-wiring.js';
import { readJsonFile } from '../input/read-json-file.js';
import { explainIssues } from '../../shared/zod-issues.js';

export interface ManyEditFlags {
  many: string;
  wait?: boolean;
  work?: boolean;
  json?: boolean;
}

/** What a `--many` file holds and the job each of its entries becomes. */
export interface ManyEditKind<P extends { serialNumber: string }> {
  job: PerChatbotJobKind<P>;
  /** One entry: the request body, serialNumber included (its shape's keys feed "did you mean"). */
  schema: z.ZodType<P> & { shape: object };
  /** The file's name in help ("settings.json"). */
  file: string;
  /** What the array holds, plural ("settings objects"). */
  entries: string;
  /** What the jobs do, plural, in the result line ("chatbot edits"). */
  label: string;
}

/** `chatbot edit --many`: settings changes (api-spec 2.1). */
export const SETTINGS_EDITS: ManyEditKind<ChatbotSettings> = {
  job: EDIT_CHATBOT_JOBS,
  schema: chatbotSettingsSchema,
  file: 'settings.json',
  entries: 'settings objects',
  label: 'chatbot edits',
};

/** `chatbot knowledge --many`: knowledge-base edits (api-spec 2.2, rule 4.4.1 included). */
export const KNOWLEDGE_EDITS: ManyEditKind<KnowledgeEdit> = {
  job: EDIT_KNOWLEDGE_JOBS,
  schema: knowledgeEditSchema,
  file: 'knowledge.json',
  entries: 'knowledge-base edit objects',
  label: 'knowledge-base edits',
};

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
  const content = await readJsonFile(path);
  if (!Array.isArray(content) || content.length === 0) {
    throw new ListingSyncError('INVALID_INPUT', `${path}: expected a non-empty JSON array of ${kind.entries}, each with its serialNumber`);
  }
  const fields = Object.keys(kind.schema.shape);
  const problems: string[] = [];
  const edits: P[] = [];
  const seen = new Set<string>();
  content.forEach((entry: unknown, index) => {
    const parsed = kind.schema.safeParse(entry);
    if (!parsed.success) {
      problems.push(`entry ${index + 1}: ${explainIssues(parsed.error.issues, entry, fields).join('; ')}`);
    } else if (seen.has(parsed.data.serialNumber)) {
      problems.push(`entry ${index + 1}: chatbot ${parsed.data.serialNumber} appears twice (merge its entries into one)`);
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
async function requireKnownChatbots(io: CliIo, config: Config, logger: Logger, serials: readonly string[]): Promise<void> {
  if (config.api.baseUrl === undefined) return;
  const api = createClientFromConfig(config, logger, 'api');
  const release = io.releases.push('API client', () => api.close());
  try {
    const unknown = await unknownChatbots(api, serials, { retryTable: config.api.retryTable });
    if (unknown.length > 0) throw chatbotNotFoundError(unknown);
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
  await requireKnownChatbots(io, config, logger, chatbots);
  // Waiting or working runs for long: carry on through a Redis restart ('session'); an enqueue fails fast.
  const ctx = await queueContextOnStack(io, config, flags.wait || flags.work ? 'session' : 'producer', logger);
  if (flags.work) await workersOnStack(io, config, recordedClientOnStack(io, config, logger, ctx), ctx, logger, {}, undefined, false);
  const bars = createProgressBars(io, flags.json, logger);
  const run = chatbotEditsRun(chatbots, newRunId(Date.now(), randomBytes(4).toString('hex')), Date.now());
  await enqueuePerChatbot(kind.job, edits, run, { writes: ctx.queues.writes, store: ctx.store, jobs: jobSettings(config) });
  const result: { runId: string; chatbots: string[]; edited?: number; failed?: number } = { runId: run.id, chatbots };
  if (flags.wait || flags.work) {
    const counts = await waitForRun(ctx.store, run.id, { onProgress: (c) => bars.update('edits', c.finishedJobs, c.totalJobs) });
    result.edited = counts.edited;
    result.failed = counts.failedJobs;
  }
  await bars.stop();
  if (flags.json) printJson(io, result);
  else
    io.stdout.write(
      `run ${run.id}: ${edits.length} ${kind.label} ` +
        `enqueued${result.edited === undefined ? '' : `, ${result.edited} edited, ${result.failed} failed`}\n`,
    );
  return (result.failed ?? 0) > 0 ? EXIT.failed : EXIT.ok;
}
