/**
 * What /metrics says about runs, read from the run records at scrape time: status, chatbot and
 * times of the newest runs, four fields each (HMGET, sent back to back), never the summaries.
 */
import type { Store } from './store.js';

/** The fields of one run that its metrics need. Times are epoch milliseconds. */
export interface RunSample {
  chatbot: string;
  status: string;
  startedAt: number;
  finishedAt?: number;
}

/**
 * Why a window: the store keeps every run, and a scrape every few seconds must stay cheap as
 * that history grows; the newest runs are what ops watch.
 */
export const RUN_METRICS_WINDOW = 5000;
const CHUNK = 500;

/** The newest `limit` runs (all chatbots), newest first. */
export async function readRunSamples(store: Pick<Store, 'redis' | 'keys' | 'runs'>, limit = RUN_METRICS_WINDOW): Promise<RunSample[]> {
  const { redis, keys } = store;
  const ids = await redis.zrevrange(keys.runsAll(), 0, limit - 1);
  const samples: RunSample[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const part = ids.slice(i, i + CHUNK);
    const chatbots = await store.runs.chatbotsOfRuns(part);
    const replies = await Promise.all(
      part.map(async (id, n) => {
        const located = chatbots[n];
        return located === undefined ? [] : await redis.hmget(keys.run(located, id), 'chatbot', 'status', 'startedAt', 'finishedAt');
      }),
    );
    for (const [chatbot, status, startedAt, finishedAt] of replies) {
      if (!chatbot || !status) continue; // a run whose record expired or is half-written
      const sample: RunSample = { chatbot, status, startedAt: Number(startedAt ?? 0) };
      if (finishedAt) sample.finishedAt = Number(finishedAt);
      samples.push(sample);
    }
  }
  return samples;
}
