/**
 * The jobs of a kind enqueued once per chatbot, each carrying one request body for that chatbot
 * (the bulk edits: `chatbot edit --many`, `chatbot knowledge --many`). The id is fixed by kind,
 * chatbot and run (never by the body): the same run enqueued again after a crash adds nothing, so
 * no edit is applied twice, while two kinds, or two runs, for one chatbot never share an id.
 */
import { jobId } from '../../src/domain/job-id.js';
import type { JobSpec } from './job-spec.js';

/** One `name` job per body, in order, each with the data `dataOf` gives it. */
export function perChatbotJobSpecs<P extends { serialNumber: string }>(
  name: string,
  bodies: readonly P[],
  runId: string,
  dataOf: (body: P) => JobSpec['data'],
): JobSpec[] {
  return bodies.map((body) => ({
    name,
    id: jobId({ kind: name, chatbot: body.serialNumber, keyType: 'chatbot', key: body.serialNumber, runId }),
    data: dataOf(body),
    touches: [],
  }));
}
