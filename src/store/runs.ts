/**
 * Run records: one hash per run plus its job list, rejected rows and per-job outcomes, indexed
 * by start time overall and per chatbot (layout in keys.ts). Counts are moved by the job-finish
 * script (job-finish.ts), never here, so they stay exact under retries and dead workers.
 */
import type { RedisClient } from './redis-client.js';
import type { StoreKeys } from './keys.js';
import { runLua } from './lua.js';
import { CANCEL, MARK_STUCK, REOPEN, SEAL, SERVER_ID, SETTLE } from './run-scripts.js';
import { COUNT_FIELDS, countsFrom, num, recordFrom } from './run-hash.js';
import type { NewRunSummary } from './run-summary.js';
import { RUN_STATUSES, isFinalStatus, type NewRun, type RunCounts, type RunRecord, type RunStatus } from './run-types.js';
import { runIdOfJobId } from '../domain/job-id.js';
import { listedEntry, listedJobOf, type ListedJob } from './carried-ids.js';

const LIST_CHUNK = 1000;

/** How many runId → chatbot answers a RunStore keeps (they never change, so any of them may be kept). */
const LOCATED_MAX = 10_000;

export class RunStore {
  /** runId → chatbot already read (cluster layout): a run's keys are in its chatbot's slot. */
  private readonly located = new Map<string, string>();

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: StoreKeys,
  ) {}

  private remember(runId: string, chatbot: string): void {
    if (this.located.size >= LOCATED_MAX) this.located.clear();
    this.located.set(runId, chatbot);
  }

  /**
   * The chatbot whose slot holds the run's keys, or undefined for a run Redis does not know. On
   * one Redis the run's keys do not depend on it ('' is returned without a read).
   */
  async chatbotOfRun(runId: string): Promise<string | undefined> {
    if (this.keys.layout === 'single') return '';
    const known = this.located.get(runId);
    if (known !== undefined) return known;
    const chatbot = await this.redis.hget(this.keys.runChatbots(), runId);
    if (chatbot === null) return undefined;
    this.remember(runId, chatbot);
    return chatbot;
  }

  /** The chatbots of many runs (one HMGET on a cluster); undefined for runs Redis does not know. */
  async chatbotsOfRuns(runIds: readonly string[]): Promise<Array<string | undefined>> {
    if (this.keys.layout === 'single') return runIds.map(() => '');
    const missing = runIds.filter((id) => !this.located.has(id));
    if (missing.length > 0) {
      const found = await this.redis.hmget(this.keys.runChatbots(), ...missing);
      missing.forEach((id, n) => {
        const chatbot = found[n];
        if (typeof chatbot === 'string') this.remember(id, chatbot);
      });
    }
    return runIds.map((id) => this.located.get(id));
  }

  /**
   * Creates the run record, indexes it (and lists it as open unless it is final already), and
   * stores its rejected rows. The Redis server's run id is stored with it (see write-claims.ts).
   * Order, for a crash between the steps: the runId → chatbot map first (so the run can be found),
   * then the record with its chatbot index and rows (one MULTI in the chatbot's slot), then the
   * installation-wide open list and index. A run created without its open-list entry is still
   * reconciled when the next sync of the chatbot finds its lease stale (chatbot-lease.ts).
   */
  async createRun(run: NewRun): Promise<void> {
    const rejected = run.rejected ?? [];
    const { keys } = this;
    if (keys.layout === 'cluster') await this.redis.hset(keys.runChatbots(), run.id, run.chatbot);
    this.remember(run.id, run.chatbot);
    const runKey = keys.run(run.chatbot, run.id);
    const server = String(await runLua(this.redis, SERVER_ID, [runKey], []));
    const fields: Record<string, string> = {
      id: run.id,
      chatbot: run.chatbot,
      trigger: run.trigger,
      forced: run.forced ? '1' : '0',
      status: run.status,
      startedAt: String(run.startedAt),
      summary: JSON.stringify(run.summary ?? null),
      rejectedCount: String(run.rejectedCount ?? rejected.length),
      server,
    };
    if (run.finishedAt !== undefined) fields.finishedAt = String(run.finishedAt);
    const tx = this.redis.multi();
    tx.hset(runKey, fields);
    tx.zadd(keys.runsOfChatbot(run.chatbot), run.startedAt, run.id);
    for (let i = 0; i < rejected.length; i += LIST_CHUNK) {
      tx.rpush(keys.runRejected(run.chatbot, run.id), ...rejected.slice(i, i + LIST_CHUNK).map((row) => JSON.stringify(row)));
    }
    await tx.exec();
    await Promise.all([
      isFinalStatus(run.status) ? undefined : this.redis.zadd(keys.runsOpen(), run.startedAt, run.id),
      this.redis.zadd(keys.runsAll(), run.startedAt, run.id),
    ]);
  }

  /**
   * Lists job ids under the run, before those jobs are added to the queue: a crash between the
   * two leaves ids the reconciler finds missing from the queue and records as lost, never jobs
   * the run does not know about. The total is recorded by `sealRun` once every job is in.
   */
  async addRunJobs(runId: string, chatbot: string, jobs: ReadonlyArray<string | ListedJob>): Promise<void> {
    if (jobs.length === 0) return;
    const jobIds = jobs.map(listedEntry);
    const tx = this.redis.multi();
    for (let i = 0; i < jobIds.length; i += LIST_CHUNK) tx.rpush(this.keys.runJobs(chatbot, runId), ...jobIds.slice(i, i + LIST_CHUNK));
    await tx.exec();
  }

  /** Takes a run off the open list: it just became final (see SETTLE_RUN_LUA for why not in the script), or its record is gone. */
  async closeOpen(runId: string): Promise<void> {
    await this.redis.zrem(this.keys.runsOpen(), runId);
  }

  /** closeOpen when `status` is final; returns it. */
  private async closedIfFinal(runId: string, status: unknown): Promise<RunStatus | undefined> {
    if (typeof status !== 'string') return undefined;
    const known = RUN_STATUSES.find((s) => s === status);
    if (known !== undefined && isFinalStatus(known) && known !== 'stuck') await this.closeOpen(runId);
    return known;
  }

  /**
   * Records the job total of an enqueuing run and makes it running, atomically; a run whose jobs
   * all finished meanwhile (or that has none) ends here. Returns the final status if it ended.
   */
  async sealRun(runId: string, chatbot: string, totalJobs: number, now: number): Promise<RunStatus | undefined> {
    const reply = await runLua(this.redis, SEAL, [this.keys.run(chatbot, runId), this.keys.lease(chatbot)], [runId, totalJobs, now]);
    return await this.closedIfFinal(runId, reply);
  }

  /** Ends a run whose jobs all have an outcome; undefined when jobs remain (or it is not running). */
  async settleRun(runId: string, chatbot: string, now: number): Promise<RunStatus | undefined> {
    const reply = await runLua(this.redis, SETTLE, [this.keys.run(chatbot, runId), this.keys.lease(chatbot)], [runId, now]);
    return await this.closedIfFinal(runId, reply);
  }

  /** Cancels a run that has not ended; returns the status it has afterwards (undefined: no such run). */
  async cancelRun(runId: string, chatbot: string, now: number): Promise<RunStatus | undefined> {
    const reply = await runLua(this.redis, CANCEL, [this.keys.run(chatbot, runId), this.keys.lease(chatbot)], [runId, now]);
    return await this.closedIfFinal(runId, reply);
  }

  /** Marks a running run stuck with a reason; false when it was not running. */
  async markStuck(runId: string, chatbot: string, now: number, reason: string): Promise<boolean> {
    return (await runLua(this.redis, MARK_STUCK, [this.keys.run(chatbot, runId), this.keys.lease(chatbot)], [runId, now, reason])) === 1;
  }

  /** Makes a stuck run running again (resumed); returns its status afterwards. */
  async reopenStuck(runId: string): Promise<RunStatus | undefined> {
    const chatbot = await this.chatbotOfRun(runId);
    if (chatbot === undefined) return undefined;
    const reply = await runLua(this.redis, REOPEN, [this.keys.run(chatbot, runId)], [runId]);
    if (reply === 'running') {
      const startedAt = await this.redis.hget(this.keys.run(chatbot, runId), 'startedAt');
      await this.redis.zadd(this.keys.runsOpen(), num(startedAt), runId);
    }
    return typeof reply === 'string' ? (reply as RunStatus) : undefined;
  }

  /** Run ids not final yet (oldest first): the reconciler's work list. */
  async openRuns(limit = 1000): Promise<string[]> {
    return await this.redis.zrange(this.keys.runsOpen(), '0', String(limit - 1));
  }

  /** Fields the reconciler and waiters read: status, counts, last progress time, server id. */
  async runState(
    runId: string,
  ): Promise<{ status?: RunStatus; chatbot?: string; totalJobs: number; finishedJobs: number; progressAt?: number; startedAt?: number }> {
    const located = await this.chatbotOfRun(runId);
    if (located === undefined) return { totalJobs: 0, finishedJobs: 0 };
    const [status, chatbot, total, finished, progressAt, startedAt] = await this.redis.hmget(
      this.keys.run(located, runId),
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
    const chatbot = await this.chatbotOfRun(runId);
    if (chatbot === undefined) return;
    await this.redis.hset(this.keys.run(chatbot, runId), fields);
    if (update.status !== undefined && isFinalStatus(update.status)) await this.closeOpen(runId);
  }

  async getRun(runId: string): Promise<RunRecord | undefined> {
    const chatbot = await this.chatbotOfRun(runId);
    if (chatbot === undefined) return undefined;
    return recordFrom(await this.redis.hgetall(this.keys.run(chatbot, runId)));
  }

  /** Just the counts (one HMGET once the run's chatbot is known): cheap enough to poll. */
  async runCounts(runId: string): Promise<RunCounts> {
    const fields = [...COUNT_FIELDS.map((f) => `c:${f}`), 'totalJobs', 'j:finished', 'j:failed'];
    const chatbot = await this.chatbotOfRun(runId);
    if (chatbot === undefined) return countsFrom(() => undefined);
    const values = await this.redis.hmget(this.keys.run(chatbot, runId), ...fields);
    const byField = new Map(fields.map((field, i) => [field, values[i]]));
    return countsFrom((field) => byField.get(field));
  }

  /**
   * Runs newest first, optionally of one chatbot. Why one HGETALL per run rather than a pipeline:
   * on a cluster the runs live on several masters, and ioredis sends concurrent commands to each
   * master in one batch anyway (auto-pipelining).
   */
  async listRuns(options: { chatbot?: string; limit?: number; offset?: number } = {}): Promise<RunRecord[]> {
    const index = options.chatbot === undefined ? this.keys.runsAll() : this.keys.runsOfChatbot(options.chatbot);
    const offset = options.offset ?? 0;
    const ids = await this.redis.zrevrange(index, offset, offset + (options.limit ?? 20) - 1);
    if (ids.length === 0) return [];
    const chatbots = options.chatbot === undefined ? await this.chatbotsOfRuns(ids) : ids.map(() => options.chatbot);
    const hashes = await Promise.all(
      ids.map(async (id, n) => {
        const chatbot = chatbots[n];
        return chatbot === undefined ? {} : await this.redis.hgetall(this.keys.run(chatbot, id));
      }),
    );
    return hashes.map(recordFrom).filter((record): record is RunRecord => record !== undefined);
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
    return (await this.listedJobs(runId)).map((job) => job.id);
  }

  /** The jobs listed under a run, each with the queue job that carries it, if one does. */
  async listedJobs(runId: string): Promise<ListedJob[]> {
    const chatbot = await this.chatbotOfRun(runId);
    const entries = chatbot === undefined ? [] : await this.redis.lrange(this.keys.runJobs(chatbot, runId), 0, -1);
    return entries.map(listedJobOf);
  }

  async rejectedRows(runId: string): Promise<unknown[]> {
    const chatbot = await this.chatbotOfRun(runId);
    const rows = chatbot === undefined ? [] : await this.redis.lrange(this.keys.runRejected(chatbot, runId), 0, -1);
    return rows.map((row) => JSON.parse(row) as unknown);
  }

  /**
   * The outcome recorded for one job, found by the run its id names (runIdOfJobId); undefined
   * when none is recorded or the id names no run.
   */
  async recordedOutcome(jobId: string): Promise<string | undefined> {
    const runId = runIdOfJobId(jobId);
    const chatbot = runId === undefined ? undefined : await this.chatbotOfRun(runId);
    if (runId === undefined || chatbot === undefined) return undefined;
    const value = await this.redis.hget(this.keys.runOutcomes(chatbot, runId), jobId);
    return value === null ? undefined : value.split('\t')[0];
  }

  /** jobId → final outcome recorded so far. */
  async jobOutcomes(runId: string): Promise<Map<string, string>> {
    const chatbot = await this.chatbotOfRun(runId);
    const hash = chatbot === undefined ? {} : await this.redis.hgetall(this.keys.runOutcomes(chatbot, runId));
    return new Map(Object.entries(hash).map(([jobId, value]) => [jobId, value.split('\t')[0] ?? '']));
  }
}
