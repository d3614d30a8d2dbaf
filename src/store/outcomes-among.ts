/** The outcomes a run recorded for some of its jobs: one HMGET, for a carrier's few listings in a run of any size. */
import type { Store } from './store.js';

/** The outcomes recorded for those of `jobIds` (jobs of run `runId` of `chatbot`) that have one. */
export async function outcomesAmong(
  store: Pick<Store, 'redis' | 'keys'>,
  runId: string,
  chatbot: string,
  jobIds: readonly string[],
): Promise<Map<string, string>> {
  const outcomes = new Map<string, string>();
  if (jobIds.length === 0) return outcomes;
  const values = await store.redis.hmget(store.keys.runOutcomes(chatbot, runId), ...jobIds);
  jobIds.forEach((jobId, i) => {
    const value = values[i];
    if (typeof value === 'string') outcomes.set(jobId, value.split('\t')[0] ?? '');
  });
  return outcomes;
}
