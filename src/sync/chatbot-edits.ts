/**
 * Bulk chatbot edits (`chatbot edit --many`, `chatbot knowledge --many`) as a use case: they go
 * through the queue, one job per chatbot under one run, so they get the same retries, rate limits
 * and failure records as listing writes. One path for every per-chatbot kind (ManyEditKind):
 * every entry is validated, and the chatbots checked, before anything is enqueued.
 */
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { ApiClient } from '../api/client-contract.js';
import type { RetryTable } from '../api/retry-policy.js';
import { chatbotSettingsSchema, knowledgeEditSchema, type ChatbotSettings, type KnowledgeEdit } from '../api/schemas.js';
import { newRunId } from '../domain/job-id.js';
import { ListingSyncError } from '../shared/errors.js';
import { explainIssues } from '../shared/zod-issues.js';
import { enqueuePerChatbot, type EnqueueOptions } from '../queue/enqueue.js';
import type { Store } from '../store/store.js';
import { chatbotEditsRun } from './run-records.js';
import { chatbotNotFoundError, unknownChatbots } from './snapshot.js';
import { waitForRun } from './wait-for-run.js';

/** What a `--many` file holds and the job each of its entries becomes. */
export interface ManyEditKind<P extends { serialNumber: string }> {
  /** The job kind each entry becomes (jobs/registry.ts: one that takes per-chatbot bodies). */
  job: string;
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
  job: 'edit-chatbot',
  schema: chatbotSettingsSchema,
  file: 'settings.json',
  entries: 'settings objects',
  label: 'chatbot edits',
};

/** `chatbot knowledge --many`: knowledge-base edits (api-spec 2.2, rule 4.4.1 included). */
export const KNOWLEDGE_EDITS: ManyEditKind<KnowledgeEdit> = {
  job: 'edit-knowledge',
  schema: knowledgeEditSchema,
  file: 'knowledge.json',
  entries: 'knowledge-base edit objects',
  label: 'knowledge-base edits',
};

/**
 * Validates the content of a --many file read from `path`: a JSON array of `kind` bodies, each with
 * its serialNumber, each chatbot once. Every bad entry is named by its position in one INVALID_INPUT error.
 */
export function validateManyEdits<P extends { serialNumber: string }>(kind: ManyEditKind<P>, path: string, content: unknown): P[] {
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
 * anything is enqueued: otherwise each of their jobs fails on its own, "not found" after "not found".
 */
export async function requireKnownChatbots(api: ApiClient, serials: readonly string[], retryTable: RetryTable): Promise<void> {
  const unknown = await unknownChatbots(api, serials, { retryTable });
  if (unknown.length > 0) throw chatbotNotFoundError(unknown);
}

/** Enqueues one `kind` job per edit under one new run; returns the run's id. */
export async function enqueueManyEdits<P extends { serialNumber: string }>(
  kind: ManyEditKind<P>,
  edits: readonly P[],
  options: Pick<EnqueueOptions, 'writes' | 'store' | 'jobs'>,
): Promise<string> {
  const chatbots = edits.map((edit) => edit.serialNumber);
  const run = chatbotEditsRun(chatbots, newRunId(Date.now(), randomBytes(4).toString('hex')), Date.now());
  await enqueuePerChatbot(kind.job, edits, run, options);
  return run.id;
}

/** Waits until every edit job of run `runId` finished: how many chatbots were edited, how many jobs failed. */
export async function waitForEdits(
  store: Store,
  runId: string,
  onProgress: (finished: number, total: number) => void,
): Promise<{ edited: number; failed: number }> {
  const counts = await waitForRun(store, runId, { onProgress: (c) => onProgress(c.finishedJobs, c.totalJobs) });
  return { edited: counts.edited, failed: counts.failedJobs };
}
