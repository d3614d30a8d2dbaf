/**
 * Group commit for per-job Redis scripts: calls of one group (one script over one chatbot's keys
 * of one key type and one run) that arrive while a call of that group is in flight wait for it,
 * then go out together as ONE script call. An idle group sends at once, so a lone job waits no
 * longer than before; under load, 16–20 concurrent jobs share a round trip instead of making one
 * each (bench:sync counts Redis round trips per job).
 *
 * Why one group per chatbot, key type and run: a Redis Cluster script may touch one slot only,
 * and the chatbot's hash tag is what puts its ledger, claims, lease and runs in one slot; mixing
 * two chatbots (or global keys) in one call would be a CROSSSLOT error there.
 *
 * Each caller still gets its own reply only once the call that carried it returned: a job is
 * never told its outcome is recorded before Redis has it. A batch that fails is tried again one
 * call per item (every script used here is idempotent per item), so one bad item fails alone.
 */

/** Sends a batch of one group; returns one reply per item, in order. */
export type BatchSender<I, O> = (items: readonly I[]) => Promise<readonly O[]>;

interface Waiting<I, O> {
  item: I;
  resolve(reply: O): void;
  reject(reason: unknown): void;
}

interface Group<I, O> {
  busy: boolean;
  waiting: Array<Waiting<I, O>>;
}

/** Most items in one script call (bounds a script's run time in Redis and its argument list). */
export const DEFAULT_MAX_BATCH = 64;

/**
 * How long the first item of a batch waits for company. Why: at a few hundred jobs a second a
 * Redis round trip (well under a millisecond) rarely overlaps the next job's call, so waiting
 * only for the call in flight leaves most batches at one item; a couple of milliseconds is small
 * beside a 20 ms+ request, and the jobs BullMQ prefetches beyond the request limit
 * (request-gate.ts) keep the request slots busy meanwhile (bench:sync measures both).
 */
export const DEFAULT_WINDOW_MS = 2;

export interface GroupCommitOptions {
  maxBatch?: number;
  windowMs?: number;
}

export interface GroupCommit<I, O> {
  /** Queues `item` in `group` and resolves with its own reply once the call that carried it returned. */
  submit(group: string, item: I, send: BatchSender<I, O>): Promise<O>;
}

export function groupCommit<I, O>(options: GroupCommitOptions = {}): GroupCommit<I, O> {
  const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
  const groups = new Map<string, Group<I, O>>();

  async function sendEach(batch: ReadonlyArray<Waiting<I, O>>, send: BatchSender<I, O>): Promise<void> {
    await Promise.all(
      batch.map(async (one) => {
        try {
          const [reply] = await send([one.item]);
          one.resolve(reply as O);
        } catch (thrown) {
          one.reject(thrown);
        }
      }),
    );
  }

  async function drain(name: string, group: Group<I, O>, send: BatchSender<I, O>): Promise<void> {
    group.busy = true;
    try {
      if (windowMs > 0 && group.waiting.length < maxBatch) await new Promise((resolve) => setTimeout(resolve, windowMs));
      while (group.waiting.length > 0) {
        const batch = group.waiting.splice(0, maxBatch);
        try {
          const replies = await send(batch.map((one) => one.item));
          batch.forEach((one, i) => one.resolve(replies[i] as O));
        } catch (thrown) {
          if (batch.length === 1) batch[0]?.reject(thrown);
          else await sendEach(batch, send);
        }
      }
    } finally {
      group.busy = false;
      if (group.waiting.length === 0) groups.delete(name);
    }
  }

  return {
    submit(name, item, send) {
      let group = groups.get(name);
      if (group === undefined) {
        group = { busy: false, waiting: [] };
        groups.set(name, group);
      }
      const queued = group;
      const reply = new Promise<O>((resolve, reject) => queued.waiting.push({ item, resolve, reject }));
      if (!queued.busy) void drain(name, queued, send);
      return reply;
    },
  };
}
