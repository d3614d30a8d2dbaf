/**
 * Fair turns: the writes of every chatbot share the queue in turn, so a chatbot with thousands of
 * jobs queued cannot hold another chatbot's few jobs back behind all of its own.
 *
 * How: every write job gets a BullMQ priority, read as a virtual time ("turn"). The queue's
 * clock is the lowest priority still waiting (BullMQ serves the lowest first), or 1 when nothing
 * waits. A run's jobs take consecutive turns from the clock on: job i of a run queued when the
 * clock reads c gets turn c + i. A run queued behind a 4,000-job migration therefore interleaves
 * one for one with the migration's remaining jobs, and five such runs take one turn each per
 * turn of the migration. Equal turns go in the order they were added (BullMQ's counter), so the
 * job that was queued first still goes first.
 *
 * Why priorities and not another scheduler: BullMQ's open-source queue has no groups
 * (taskforcesh/bullmq#303 points to the paid Pro groups). A priority is a field of the job and
 * one sorted set of the queue, kept atomically by BullMQ's own scripts on one Redis and on a
 * Redis Cluster (the queue's keys share one hash tag); retries, backoffs, the claim wait
 * (moveToDelayed), `jobs retry` and a job put back by the breaker keep the job's priority. Job
 * ids, key claims, leases and run counts do not change at all. A dispatcher of our own
 * (per-chatbot lists moved into the queue in turn) would need a process that owns it, its own
 * crash recovery, and one more move per job.
 *
 * The limit: the wait is bounded by what is already taken — jobs workers hold (twice the request
 * limit per process, request-gate.ts) and the one job per other run at the same turn — about one
 * round of the request limit. Turns are capped at BullMQ's highest priority (2^21 − 1); jobs past
 * it (a run of more than ~2 million jobs, or one queued behind such a run) keep FIFO order among
 * themselves.
 *
 * Cost: one pipelined ZRANGE (+ ZSCORE, EXISTS) per chunk of jobs added (0.01–0.03 commands per job);
 * BullMQ's prioritized add and fetch cost about two more commands per job inside its scripts
 * than the wait list (the priority counter's INCR, ZPOPMIN + LPUSH instead of one RPOPLPUSH).
 */
import type { Queue } from 'bullmq';
import type { RedisClient } from '../store/redis-client.js';
import { runJobIdsOf, type JobSpec } from '../../jobs/support/job-spec.js';

/** BullMQ's highest priority (2^21 − 1; bullmq's PRIORITY_LIMIT): the last turn. */
export const LAST_TURN = 2 ** 21 - 1;

/** The first turn: priority 1 (BullMQ puts priority 0 in its plain wait list, served before any priority). */
export const FIRST_TURN = 1;

/** BullMQ's sorted-set score of a prioritized job: priority × 2^32 + its add counter. */
const COUNTER_SPAN = 2 ** 32;

/** How the turns of one run's jobs step: each job its own turn (a sync), or all the same turn (one job per chatbot). */
export type TurnStep = 'per-job' | 'per-chatbot';

/** Gives the jobs of one run their turns, chunk by chunk. */
export interface RunTurns {
  /** `part` with each job's priority set (in order), following the run's earlier chunks. */
  take(part: readonly JobSpec[]): Promise<JobSpec[]>;
}

/** The turn a sorted-set score stands for. */
export function turnOfScore(score: number): number {
  return Math.floor(score / COUNTER_SPAN);
}

/**
 * The turns of one run in queue `writes` (its prioritized set read through `redis`). Why the run
 * carries on from its own last turn only while its last job still waits (or is not in the queue
 * yet: the enqueue thread adds a chunk after its turns were taken, so its record is not there):
 * its jobs are taken in turn order, so once its last job has been taken none of its jobs wait,
 * and the turns it had are stale (the clock may have gone back to 1 since, when the queue ran
 * empty); it then starts again at the clock, like a newly queued run, instead of behind turns no
 * one holds any more. A run whose next chunk comes late (a paced enqueue) likewise never jumps
 * ahead of the clock. (A last job completed and already removed also reads "not in the queue":
 * the run then carries on after its last turn, which only matters if the queue ran empty since.)
 */
export function runTurns(redis: RedisClient, writes: Queue, step: TurnStep = 'per-job'): RunTurns {
  const prioritized = writes.toKey('prioritized');
  let last: { jobId: string; turn: number } | undefined;
  const stride = step === 'per-job' ? 1 : 0;

  async function baseTurn(): Promise<number> {
    // One slot on a cluster: the job's record and the set share the queue's hash tag.
    const pipe = redis.pipeline().zrange(prioritized, '0', '0', 'WITHSCORES');
    if (last !== undefined) pipe.zscore(prioritized, last.jobId).exists(writes.toKey(last.jobId));
    const replies = (await pipe.exec()) ?? [];
    for (const [error] of replies) if (error) throw error;
    const lowest = replies[0]?.[1] as string[] | undefined;
    const clock = lowest !== undefined && lowest.length >= 2 ? turnOfScore(Number(lowest[1])) : FIRST_TURN;
    if (last === undefined) return clock;
    const waits = replies[1]?.[1] !== null && replies[1]?.[1] !== undefined;
    const notYetIn = replies[2]?.[1] === 0;
    return waits || notYetIn ? Math.max(clock, last.turn + stride) : clock;
  }

  return {
    async take(part) {
      if (part.length === 0) return [];
      const base = await baseTurn();
      // Why a carrier takes a turn per listing it carries: turns share listings, not queue jobs,
      // so a run whose listings travel eight to a job does not go eight times as fast as another's.
      let taken = 0;
      const turned = part.map((spec) => {
        const priority = Math.min(LAST_TURN, Math.max(FIRST_TURN, base + taken * stride));
        taken += runJobIdsOf(spec).length;
        return { ...spec, priority };
      });
      const end = turned[turned.length - 1];
      if (end !== undefined) last = { jobId: end.id, turn: Math.min(LAST_TURN, base + (taken - 1) * stride) };
      return turned;
    },
  };
}
