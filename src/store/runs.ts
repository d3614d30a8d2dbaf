/**
 * Run records: one hash per run plus its job list, rejected rows and per-job outcomes, indexed
 * by start time overall and per chatbot (layout in keys.ts). Counts are moved by the job-finish
 * script (job-finish.ts), never here, so they stay exact under retries and dead workers.
 */
import type { Redis } from 'ioredis';
import type { StoreKeys } from './keys.js';
import { RUN_STATUSES, RUN_TRIGGERS, emptyCounts, type NewRun, type RunCounts, type RunRecord, type RunStatus } from './run-types.js';

const COUNT_FIELDS = ['created', 'updated', 'deleted', 'unchanged', 'edited', 'superseded', 'failed', 'retried'] as const;
const LIST_CHUNK = 1000;

function num(value: string | null | undefined): number {
  const n = Number(value ?? 0);
  return Number.isFinite(n) ? n : 0;
}

function countsFrom(get: (field: string) => string | null | undefined): RunCounts {
  const counts = emptyCounts();
  for (const field of COUNT_FIELDS) counts[field] = num(get(`c:${field}`));
  counts.totalJobs = num(get('totalJobs'));
  counts.finishedJobs = num(get('j:finished'));
  counts.failedJobs = num(get('j:failed'));
  return counts;
}

function parseSummary(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function recordFrom(hash: Record<string, string>): RunRecord | undefined {
  if (hash.id === undefined || hash.chatbot === undefined) return undefined;
  const status = RUN_STATUSES.find((s) => s === hash.status) ?? 'planned';
  const trigger = RUN_TRIGGERS.find((t) => t === hash.trigger) ?? 'cli';
  const record: RunRecord = {
    id: hash.id,
    chatbot: hash.chatbot,
    trigger,
    forced: hash.forced === '1',
    status,
    startedAt: num(hash.startedAt),
    summary: parseSummary(hash.summary),
    counts: countsFrom((field) => hash[field]),
    rejectedCount: num(hash.rejectedCount),
  };
  if (hash.finishedAt) record.finishedAt = num(hash.finishedAt);
  return record;
}

export class RunStore {
  constructor(private readonly redis: Redis, private readonly keys: StoreKeys) {}

  /** Creates the run record, indexes it, and stores its rejected rows. */
  async createRun(run: NewRun): Promise<void> {
    const rejected = run.rejected ?? [];
    const fields: Record<string, string> = {
      id: run.id,
      chatbot: run.chatbot,
      trigger: run.trigger,
      forced: run.forced ? '1' : '0',
      status: run.status,
      startedAt: String(run.startedAt),
      summary: JSON.stringify(run.summary ?? null),
      rejectedCount: String(rejected.length),
    };
    if (run.finishedAt !== undefined) fields.finishedAt = String(run.finishedAt);
    const tx = this.redis.multi();
    tx.hset(this.keys.run(run.id), fields);
    tx.zadd(this.keys.runsAll(), run.startedAt, run.id);
    tx.zadd(this.keys.runsOfChatbot(run.chatbot), run.startedAt, run.id);
    for (let i = 0; i < rejected.length; i += LIST_CHUNK) {
      tx.rpush(this.keys.runRejected(run.id), ...rejected.slice(i, i + LIST_CHUNK).map((row) => JSON.stringify(row)));
    }
    await tx.exec();
  }

  /**
   * Adds job ids to the run and raises its job total. Call before the jobs are added to the
   * queue, so a job that finishes at once never sees a total smaller than the jobs done.
   */
  async addRunJobs(runId: string, jobIds: readonly string[]): Promise<void> {
    if (jobIds.length === 0) return;
    const tx = this.redis.multi();
    for (let i = 0; i < jobIds.length; i += LIST_CHUNK) tx.rpush(this.keys.runJobs(runId), ...jobIds.slice(i, i + LIST_CHUNK));
    tx.hincrby(this.keys.run(runId), 'totalJobs', jobIds.length);
    await tx.exec();
  }

  /** Changes status/finish time/summary of a run. */
  async updateRun(runId: string, update: { status?: RunStatus; finishedAt?: number; summary?: unknown }): Promise<void> {
    const fields: Record<string, string> = {};
    if (update.status !== undefined) fields.status = update.status;
    if (update.finishedAt !== undefined) fields.finishedAt = String(update.finishedAt);
    if (update.summary !== undefined) fields.summary = JSON.stringify(update.summary);
    if (Object.keys(fields).length > 0) await this.redis.hset(this.keys.run(runId), fields);
  }

  async getRun(runId: string): Promise<RunRecord | undefined> {
    return recordFrom(await this.redis.hgetall(this.keys.run(runId)));
  }

  /** Just the counts (one HMGET): cheap enough to poll. */
  async runCounts(runId: string): Promise<RunCounts> {
    const fields = [...COUNT_FIELDS.map((f) => `c:${f}`), 'totalJobs', 'j:finished', 'j:failed'];
    const values = await this.redis.hmget(this.keys.run(runId), ...fields);
    const byField = new Map(fields.map((field, i) => [field, values[i]]));
    return countsFrom((field) => byField.get(field));
  }

  /** Runs newest first, optionally of one chatbot. */
  async listRuns(options: { chatbot?: string; limit?: number; offset?: number } = {}): Promise<RunRecord[]> {
    const index = options.chatbot === undefined ? this.keys.runsAll() : this.keys.runsOfChatbot(options.chatbot);
    const offset = options.offset ?? 0;
    const ids = await this.redis.zrevrange(index, offset, offset + (options.limit ?? 20) - 1);
    if (ids.length === 0) return [];
    const pipe = this.redis.pipeline();
    for (const id of ids) pipe.hgetall(this.keys.run(id));
    const replies = (await pipe.exec()) ?? [];
    const runs: RunRecord[] = [];
    for (const [, hash] of replies) {
      const record = recordFrom((hash ?? {}) as Record<string, string>);
      if (record) runs.push(record);
    }
    return runs;
  }

  /** The newest run of a chatbot that finished with every job done (the guard's baseline). */
  async lastSuccessfulRun(chatbot: string): Promise<RunRecord | undefined> {
    const page = 50;
    for (let offset = 0; ; offset += page) {
      const runs = await this.listRuns({ chatbot, limit: page, offset });
      const done = runs.find((run) => run.status === 'done');
      if (done) return done;
      if (runs.length < page) return undefined;
    }
  }

  async jobsOfRun(runId: string): Promise<string[]> {
    return await this.redis.lrange(this.keys.runJobs(runId), 0, -1);
  }

  async rejectedRows(runId: string): Promise<unknown[]> {
    const rows = await this.redis.lrange(this.keys.runRejected(runId), 0, -1);
    return rows.map((row) => JSON.parse(row) as unknown);
  }

  /** jobId → final outcome recorded so far. */
  async jobOutcomes(runId: string): Promise<Map<string, string>> {
    const hash = await this.redis.hgetall(this.keys.runOutcomes(runId));
    return new Map(Object.entries(hash).map(([jobId, value]) => [jobId, value.split('\t')[0] ?? '']));
  }
}
