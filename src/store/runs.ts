/**
 * Run records: one hash per run plus its job list, rejected rows and per-job outcomes, indexed
 * by start time overall and per chatbot (layout in keys.ts). Counts are moved by the job-finish
 * script (job-finish.ts), never here, so they stay exact under retries and dead workers.
 */
import type { Redis } from 'ioredis';
import type { StoreKeys } from './keys.js';
import { luaScript, runLua } from './lua.js';
import { NOW_LUA, RELEASE_LEASE_LUA, SETTLE_RUN_LUA } from './run-lua.js';
import { readRunSummary, type NewRunSummary } from './run-summary.js';
import {
  RUN_STATUSES,
  RUN_TRIGGERS,
  emptyCounts,
  isFinalStatus,
  type NewRun,
  type RunCounts,
  type RunRecord,
  type RunStatus,
} from './run-types.js';

/** Records the job total once every job is in the queue, and settles the run if they all finished already. */
const SEAL = luaScript(`${SETTLE_RUN_LUA}
if redis.call('HGET', KEYS[1], 'status') ~= 'enqueuing' then return false end
redis.call('HSET', KEYS[1], 'totalJobs', ARGV[2], 'status', 'running')
return settleRun(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[3])
`);

/** Cancels a run that is not final yet: status, finish time, off the open list, lease released. */
const CANCEL = luaScript(`${RELEASE_LEASE_LUA}
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return false end
if status ~= 'planned' and status ~= 'enqueuing' and status ~= 'running' and status ~= 'stuck' then return status end
redis.call('HSET', KEYS[1], 'status', 'cancelled', 'finishedAt', ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[1])
releaseLease(KEYS[3], ARGV[1])
return 'cancelled'
`);

/** Marks a running run stuck (it stays on the open list: its jobs may still finish) and frees its chatbot. */
const MARK_STUCK = luaScript(`${RELEASE_LEASE_LUA}${NOW_LUA}
if redis.call('HGET', KEYS[1], 'status') ~= 'running' then return 0 end
redis.call('HSET', KEYS[1], 'status', 'stuck', 'finishedAt', ARGV[2], 'stuckReason', ARGV[3])
releaseLease(KEYS[3], ARGV[1])
return 1
`);

/** A stuck run that someone resumes is running again (back on the open list). */
const REOPEN = luaScript(`
if redis.call('HGET', KEYS[1], 'status') ~= 'stuck' then return redis.call('HGET', KEYS[1], 'status') end
redis.call('HSET', KEYS[1], 'status', 'running')
redis.call('HDEL', KEYS[1], 'finishedAt', 'stuckReason')
redis.call('ZADD', KEYS[2], redis.call('HGET', KEYS[1], 'startedAt') or '0', ARGV[1])
return 'running'
`);

/** Settles a run whose jobs all have an outcome (the reconciler's way to end a run). */
const SETTLE = luaScript(`${SETTLE_RUN_LUA}
return settleRun(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2])
`);

/** The Redis server's run id: stored on each run, so a job can tell that Redis restarted since. */
async function serverRunId(redis: Redis): Promise<string> {
  const info = await redis.info('server');
  return /run_id:(\w+)/.exec(info)?.[1] ?? '';
}

const COUNT_FIELDS = ['created', 'updated', 'deleted', 'unchanged', 'edited', 'superseded', 'cancelled', 'failed', 'retried'] as const;
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
    summary: readRunSummary(hash.summary),
    counts: countsFrom((field) => hash[field]),
    rejectedCount: num(hash.rejectedCount),
  };
  if (hash.finishedAt) record.finishedAt = num(hash.finishedAt);
  if (hash.stuckReason) record.stuckReason = hash.stuckReason;
  return record;
}

export class RunStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StoreKeys,
  ) {}

  /**
   * Creates the run record, indexes it (and lists it as open unless it is final already), and
   * stores its rejected rows. The Redis server's run id is stored with it (see write-claims.ts).
   */
  async createRun(run: NewRun): Promise<void> {
    const rejected = run.rejected ?? [];
    const server = await serverRunId(this.redis);
    const fields: Record<string, string> = {
      id: run.id,
      chatbot: run.chatbot,
      trigger: run.trigger,
      forced: run.forced ? '1' : '0',
      status: run.status,
      startedAt: String(run.startedAt),
      summary: JSON.stringify(run.summary ?? null),
      rejectedCount: String(rejected.length),
      server,
    };
    if (run.finishedAt !== undefined) fields.finishedAt = String(run.finishedAt);
    const tx = this.redis.multi();
    tx.hset(this.keys.run(run.id), fields);
    tx.zadd(this.keys.runsAll(), run.startedAt, run.id);
    tx.zadd(this.keys.runsOfChatbot(run.chatbot), run.startedAt, run.id);
    if (!isFinalStatus(run.status)) tx.zadd(this.keys.runsOpen(), run.startedAt, run.id);
    for (let i = 0; i < rejected.length; i += LIST_CHUNK) {
      tx.rpush(this.keys.runRejected(run.id), ...rejected.slice(i, i + LIST_CHUNK).map((row) => JSON.stringify(row)));
    }
    await tx.exec();
  }

  /**
   * Lists job ids under the run, before those jobs are added to the queue: a crash between the
   * two leaves ids the reconciler finds missing from the queue and records as lost, never jobs
   * the run does not know about. The total is recorded by `sealRun` once every job is in.
   */
  async addRunJobs(runId: string, jobIds: readonly string[]): Promise<void> {
    if (jobIds.length === 0) return;
    const tx = this.redis.multi();
    for (let i = 0; i < jobIds.length; i += LIST_CHUNK) tx.rpush(this.keys.runJobs(runId), ...jobIds.slice(i, i + LIST_CHUNK));
    await tx.exec();
  }

  /**
   * Records the job total of an enqueuing run and makes it running, atomically; a run whose jobs
   * all finished meanwhile (or that has none) ends here. Returns the final status if it ended.
   */
  async sealRun(runId: string, chatbot: string, totalJobs: number, now: number): Promise<RunStatus | undefined> {
    const reply = await runLua(
      this.redis,
      SEAL,
      [this.keys.run(runId), this.keys.runsOpen(), this.keys.lease(chatbot)],
      [runId, totalJobs, now],
    );
    return typeof reply === 'string' ? (reply as RunStatus) : undefined;
  }

  /** Ends a run whose jobs all have an outcome; undefined when jobs remain (or it is not running). */
  async settleRun(runId: string, chatbot: string, now: number): Promise<RunStatus | undefined> {
    const reply = await runLua(this.redis, SETTLE, [this.keys.run(runId), this.keys.runsOpen(), this.keys.lease(chatbot)], [runId, now]);
    return typeof reply === 'string' ? (reply as RunStatus) : undefined;
  }

  /** Cancels a run that has not ended; returns the status it has afterwards (undefined: no such run). */
  async cancelRun(runId: string, chatbot: string, now: number): Promise<RunStatus | undefined> {
    const reply = await runLua(this.redis, CANCEL, [this.keys.run(runId), this.keys.runsOpen(), this.keys.lease(chatbot)], [runId, now]);
    return typeof reply === 'string' ? (reply as RunStatus) : undefined;
  }

  /** Marks a running run stuck with a reason; false when it was not running. */
  async markStuck(runId: string, chatbot: string, now: number, reason: string): Promise<boolean> {
    return (
      (await runLua(
        this.redis,
        MARK_STUCK,
        [this.keys.run(runId), this.keys.runsOpen(), this.keys.lease(chatbot)],
        [runId, now, reason],
      )) === 1
    );
  }

  /** Makes a stuck run running again (resumed); returns its status afterwards. */
  async reopenStuck(runId: string): Promise<RunStatus | undefined> {
    const reply = await runLua(this.redis, REOPEN, [this.keys.run(runId), this.keys.runsOpen()], [runId]);
    return typeof reply === 'string' ? (reply as RunStatus) : undefined;
  }

  /** Run ids not final yet (oldest first): the reconciler's work list. */
  async openRuns(limit = 1000): Promise<string[]> {
    return await this.redis.zrange(this.keys.runsOpen(), '0', String(limit - 1));
  }

  /** Takes a run off the open list (a record that no longer exists, or a final one). */
  async forgetOpen(runId: string): Promise<void> {
    await this.redis.zrem(this.keys.runsOpen(), runId);
  }

  /** Fields the reconciler and waiters read: status, counts, last progress time, server id. */
  async runState(
    runId: string,
  ): Promise<{ status?: RunStatus; chatbot?: string; totalJobs: number; finishedJobs: number; progressAt?: number; startedAt?: number }> {
    const [status, chatbot, total, finished, progressAt, startedAt] = await this.redis.hmget(
      this.keys.run(runId),
      'status',
      'chatbot',
      'totalJobs',
      'j:finished',
      'j:progressAt',
      'startedAt',
    );
    const known = RUN_STATUSES.find((s) => s === status);
    return {
      ...(known ? { status: known } : {}),
      ...(chatbot ? { chatbot } : {}),
      totalJobs: num(total),
      finishedJobs: num(finished),
      ...(progressAt ? { progressAt: num(progressAt) } : {}),
      ...(startedAt ? { startedAt: num(startedAt) } : {}),
    };
  }

  /** Changes status/finish time/summary of a run (a final status also takes it off the open list). */
  async updateRun(runId: string, update: { status?: RunStatus; finishedAt?: number; summary?: NewRunSummary }): Promise<void> {
    const fields: Record<string, string> = {};
    if (update.status !== undefined) fields.status = update.status;
    if (update.finishedAt !== undefined) fields.finishedAt = String(update.finishedAt);
    if (update.summary !== undefined) fields.summary = JSON.stringify(update.summary);
    if (Object.keys(fields).length === 0) return;
    const tx = this.redis.multi().hset(this.keys.run(runId), fields);
    if (update.status !== undefined && isFinalStatus(update.status)) tx.zrem(this.keys.runsOpen(), runId);
    await tx.exec();
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
