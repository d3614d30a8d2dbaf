/**
 * The pre-write probe every create and update makes: ONE script that (a) completes the job as
 * superseded when a newer run already wrote or deleted its key, (b) stops it when its run was
 * cancelled, (c) claims the key for this job so that no other job writes it at the same time,
 * (d) says whether the create must look the key up first, and (e) returns the ledger entry.
 * The claim is part of that one script, so it costs no extra round trip.
 *
 * A claim is `jobId \t expiresAt \t state \t attempt \t confirmedAt` in a hash per chatbot and key
 * type, written here and removed by the job-finish script with the ledger write. `attempt` is the
 * token BullMQ gave the job's current start; `confirmedAt` is when that start last probed (Redis
 * time). Rules, each a "why":
 * - another job's live claim → wait (the caller delays the job without using an attempt): two
 *   writes of one key in flight at once is how two runs create one listing twice;
 * - another job's expired claim, or a claim marked `doubt` (its job failed for good after it may
 *   have sent the request) → claim it, but look the key up before creating: that earlier request
 *   may have reached the service;
 * - an earlier start of the SAME job (another attempt token) → wait until `confirmedAt` plus the
 *   send window has passed, then claim it and look up first. Why: a start whose lock was lost in
 *   a Redis outage is still running; BullMQ starts the job again beside it, and both would pass
 *   a probe keyed on the job id alone and create the listing twice. A start sends its create only
 *   within a fence of its probe (else it probes again, jobs/support/send-window.ts), and a
 *   request ends within the client's timeouts: past the window, the earlier start cannot still
 *   be sending. A start that ended in an error hands its claim on at once (endAttempt);
 * - Redis restarted since the run was planned (its `run_id` differs from the one stored on the
 *   run, or the run record is gone) → look up before creating, for the rest of the run: with AOF
 *   `everysec` a crash may have lost the last second, claims and ledger entries included.
 */
import type { RedisClient } from './redis-client.js';
import type { LedgerEntry } from '../domain/ledger-entry.js';
import type { SyncKeyType } from '../domain/listing.js';
import type { StoreKeys } from './keys.js';
import { decodeLedgerEntry } from './ledger.js';
import { HASH_VIEW_LUA } from './hash-view-lua.js';
import { luaScript, runLua } from './lua.js';
import { groupCommit } from './group-commit.js';
import { LeaseBeats } from './lease-beats.js';
import { BEAT_LEASE_LUA, NOW_LUA, SERVER_ID_LUA } from './run-lua.js';

/**
 * How long a claim holds without being released. Why 5 minutes: longer than the worker lock
 * (30 s) and longer than one attempt can keep a request in flight (a lookup of several pages, a
 * create and an update, each bounded by the client's 30 s timeouts), so a claim never expires
 * under a job that is still sending. A job that died holding one is re-run under the same job
 * id (stall recovery), which takes its own claim back at once.
 */
export const CLAIM_MS = 5 * 60_000;

/** `claimFields(claim)`: holder job id, expiresAt, state, attempt token, confirmedAt. */
const CLAIM_FIELDS_LUA = `
local function claimFields(claim)
  local parts = {}
  for part in string.gmatch(claim .. '\\t', '([^\\t]*)\\t') do parts[#parts + 1] = part end
  return parts[1], tonumber(parts[2]) or 0, parts[3] or '', parts[4] or '', tonumber(parts[5]) or 0
end
`;

/**
 * ARGV: runId, claimMs, sendWindowMs, n, beat ('1': beat the lease, lease-beats.ts), then
 * n × (key, jobId, attempt): the probes of n jobs of one run (group-commit.ts), in order, each
 * as if alone. The run, the clock, the lease beat, the server id and whether any tombstone
 * exists are read once; the ledger, tombstone and claim fields of all n keys with one HMGET
 * each, and the claims written back with one HSET (hash-view-lua.ts): a handful of commands
 * per call rather than three or four per job.
 */
const PREPARE_WRITE = luaScript(`${HASH_VIEW_LUA}${NOW_LUA}${BEAT_LEASE_LUA}${SERVER_ID_LUA}${CLAIM_FIELDS_LUA}
local ledgerKey, tombKey, claimsKey, runKey, leaseKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local runId, claimMs, sendWindow, n = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local beaten = ARGV[5] ~= '1'
local run = redis.call('HMGET', runKey, 'status', 'server')
local hasTombs = redis.call('EXISTS', tombKey) == 1
local now = nowMs()
local restarted = false
local keys = {}
for i = 1, n do keys[i] = ARGV[3 + 3 * i] end
local ledger = hashView(ledgerKey, keys, true)
local tombs = hashView(tombKey, keys, hasTombs)
local claims = hashView(claimsKey, keys, true)
-- The newer run that wrote or deleted the key (else false), and the key's ledger entry.
local function newerWriter(key)
  local entry = viewGet(ledger, key)
  if entry then
    local writer = string.match(entry, '^[^\\t]*')
    if writer > runId then return writer, entry end
  end
  if not hasTombs then return false, entry end
  local deleter = viewGet(tombs, key)
  if deleter and deleter > runId then return deleter, entry end
  return false, entry
end
-- Read once, and only when a probe gets that far: INFO is the dearest command here.
local function redisRestarted()
  if restarted == false then
    restarted = 0
    if (not run[2]) or run[2] ~= serverId() then restarted = 1 end
  end
  return restarted
end
local function probe(key, jobId, attempt)
  local newer, entry = newerWriter(key)
  if newer then return {'superseded', newer} end
  if run[1] == 'cancelled' then return {'cancelled'} end
  if not beaten then beatLease(leaseKey, runId, now); beaten = true end
  local doubt = 0
  local claim = viewGet(claims, key)
  if claim then
    local holder, expires, state, holderAttempt, confirmed = claimFields(claim)
    if holder ~= jobId then
      if state ~= 'doubt' and expires > now then return {'claimed', holder, tostring(expires - now), 0} end
      doubt = 1
    elseif state == 'doubt' then
      doubt = 1
    elseif holderAttempt ~= '' and holderAttempt ~= attempt then
      if confirmed + sendWindow > now then return {'claimed', holder, tostring(confirmed + sendWindow - now), 1} end
      doubt = 1
    end
  end
  viewSet(claims, key, jobId .. '\\t' .. (now + claimMs) .. '\\t\\t' .. attempt .. '\\t' .. now)
  -- The entry read above: nothing in this script writes the ledger.
  return {'ok', entry or '', doubt, redisRestarted()}
end
local replies = {}
for i = 1, n do replies[i] = probe(ARGV[3 + 3 * i], ARGV[4 + 3 * i], ARGV[5 + 3 * i]) end
flushView(claims)
return replies
`);

/**
 * ARGV: key, jobId, attempt. A start that ended in an error (its requests are over) leaves the
 * claim to the job's next start: the attempt token is cleared, the claim itself still holds
 * against other jobs until the job finishes.
 */
const END_ATTEMPT = luaScript(`${CLAIM_FIELDS_LUA}
local claim = redis.call('HGET', KEYS[1], ARGV[1])
if not claim then return 0 end
local holder, expires, state, holderAttempt, confirmed = claimFields(claim)
if holder ~= ARGV[2] or holderAttempt ~= ARGV[3] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], holder .. '\\t' .. expires .. '\\t' .. state .. '\\t\\t' .. confirmed)
return 1
`);

export interface WriteTarget {
  chatbot: string;
  keyType: SyncKeyType;
  key: string;
  runId: string;
  jobId: string;
  /**
   * Which start of the job probes (BullMQ's lock token for it): two starts of one job never
   * write at once (see the rules above).
   */
  attempt: string;
}

/** What the probe decided for one job's write. */
export type PreparedWrite =
  | { kind: 'superseded'; newerRun: string }
  | { kind: 'cancelled' }
  | {
      kind: 'claimed';
      byJob: string;
      retryInMs: number;
      /** The holder is an earlier start of the same job (its lock lost, maybe still sending). */
      earlierAttempt: boolean;
    }
  | {
      kind: 'go';
      entry?: LedgerEntry;
      /** An earlier holder of the key may have sent a request (expired or doubtful claim). */
      inDoubt: boolean;
      /** Redis restarted since the run was planned: look every create's key up first. */
      redisRestarted: boolean;
    };

/** One probe's reply → what it decided. */
function decide(reply: unknown[]): PreparedWrite {
  const kind = reply[0];
  if (kind === 'superseded') return { kind, newerRun: String(reply[1]) };
  if (kind === 'cancelled') return { kind };
  if (kind === 'claimed') return { kind, byJob: String(reply[1]), retryInMs: Number(reply[2]), earlierAttempt: reply[3] === 1 };
  const entryText = String(reply[1] ?? '');
  const entry = entryText === '' ? undefined : decodeLedgerEntry(entryText);
  return { kind: 'go', ...(entry ? { entry } : {}), inDoubt: reply[2] === 1, redisRestarted: reply[3] === 1 };
}

export class WriteClaimStore {
  private readonly batches = groupCommit<WriteTarget, PreparedWrite>();

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: StoreKeys,
    private readonly beats: LeaseBeats = new LeaseBeats(),
  ) {}

  /**
   * The superseded check, the cancel check, the claim and the ledger entry, in one script; the
   * probes of concurrent jobs of one run (one chatbot, one key type) share one call. `sendWindow`:
   * how long an earlier start of a job may still be sending after its last probe (the jobs' send
   * window, jobs/support/send-window.ts); by default as long as a claim, which is always safe.
   */
  async prepareWrite(target: WriteTarget, claimMs: number = CLAIM_MS, sendWindow: number = claimMs): Promise<PreparedWrite> {
    const group = `${target.chatbot}\t${target.keyType}\t${target.runId}\t${claimMs}\t${sendWindow}`;
    return await this.batches.submit(group, target, (targets) => this.probe(targets, claimMs, sendWindow));
  }

  /**
   * This start of the job ended in an error, so it sends nothing more: the job's next start may
   * take the claim at once (and looks the key up first, as every later start does).
   */
  async endAttempt(target: WriteTarget): Promise<void> {
    await runLua(this.redis, END_ATTEMPT, [this.keys.claims(target.chatbot, target.keyType)], [target.key, target.jobId, target.attempt]);
  }

  private async probe(targets: readonly WriteTarget[], claimMs: number, sendWindow: number): Promise<PreparedWrite[]> {
    const { keys } = this;
    const first = targets[0] as WriteTarget;
    const reply = (await runLua(
      this.redis,
      PREPARE_WRITE,
      [
        keys.ledger(first.chatbot, first.keyType),
        keys.tombstones(first.chatbot, first.keyType),
        keys.claims(first.chatbot, first.keyType),
        keys.run(first.chatbot, first.runId),
        keys.lease(first.chatbot),
      ],
      [
        first.runId,
        claimMs,
        sendWindow,
        targets.length,
        this.beats.due(first.chatbot, first.runId) ? '1' : '0',
        ...targets.flatMap((target) => [target.key, target.jobId, target.attempt]),
      ],
    )) as unknown[][];
    return reply.map(decide);
  }
}
