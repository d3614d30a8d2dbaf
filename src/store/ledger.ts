/**
 * The ledger: per chatbot and listing key, what listing-sync last wrote (content hash, remote id,
 * time, run). A sync reads it whole (by remote position); jobs check it before writing and update it after.
 *
 * Why entries are compared by run id: run ids sort by time (domain/job-id.ts), and a job of an
 * older run must never overwrite what a newer run wrote — retrying a week-old failed job from the
 * dashboard must not undo last night's update. The compare-and-set happens in Lua so that two
 * workers finishing at once cannot interleave.
 */
import type { RedisClient } from './redis-client.js';
import { LedgerByPosition } from '../domain/snapshot/ledger-by-position.js';
import { CompactLedger, type LedgerEntry } from '../domain/ledger-entry.js';
import type { SyncKeyType } from '../domain/listing.js';
import type { RemoteKeyIndex } from '../domain/snapshot/remote-key-index.js';
import type { StoreKeys } from './keys.js';
import { luaScript, runLua } from './lua.js';

/**
 * Lua: the run id newer than `runId` that wrote or deleted `key` (or false), and the key's ledger
 * entry as read (or false). `noTombs`: the caller knows the tombstone hash is empty (EXISTS once
 * per script call), so the tombstone lookup is skipped: one command per key less in a sync that
 * deletes nothing (bench:sync counts Redis commands per listing).
 */
export const NEWER_WRITER_LUA = `
local function newerWriter(ledgerKey, tombKey, key, runId, noTombs)
  local entry = redis.call('HGET', ledgerKey, key)
  if entry then
    local writer = string.match(entry, '^[^\\t]*')
    if writer > runId then return writer, entry end
  end
  if noTombs then return false, entry end
  local deleter = redis.call('HGET', tombKey, key)
  if deleter and deleter > runId then return deleter, entry end
  return false, entry
end
`;

const RECORD_WRITE = luaScript(`${NEWER_WRITER_LUA}
local newer = newerWriter(KEYS[1], KEYS[2], ARGV[1], ARGV[2])
if newer then return newer end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HDEL', KEYS[2], ARGV[1])
return false
`);

const RECORD_DELETE = luaScript(`${NEWER_WRITER_LUA}
local newer = newerWriter(KEYS[1], KEYS[2], ARGV[1], ARGV[2])
if newer then return newer end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return false
`);

/** Serialises an entry compactly (1M entries must fit and parse quickly); run id first for Lua. */
export function encodeLedgerEntry(entry: LedgerEntry): string {
  return [entry.runId, String(entry.writtenAt), entry.hash, entry.remoteId ?? ''].join('\t');
}

export function decodeLedgerEntry(text: string): LedgerEntry | undefined {
  const [runId, writtenAt, hash, remoteId] = text.split('\t');
  if (runId === undefined || writtenAt === undefined || hash === undefined) return undefined;
  const entry: LedgerEntry = { runId, writtenAt: Number(writtenAt), hash };
  if (remoteId) entry.remoteId = remoteId;
  return entry;
}

/** What a job needs to know about its key before writing, read in one round trip. */
export interface LedgerProbe {
  /** The newer run that already wrote or deleted the key, when there is one. */
  newerRun?: string;
  /** The current entry (the key exists remotely as far as the ledger knows). */
  entry?: LedgerEntry;
}

export class LedgerStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: StoreKeys,
  ) {}

  /** Every entry of a chatbot, read with HSCAN in batches so a million entries do not block Redis. */
  async readLedger(chatbot: string, keyType: SyncKeyType): Promise<CompactLedger> {
    const ledger = new CompactLedger();
    await this.scan(chatbot, keyType, (key, entry) => void ledger.set(key, entry));
    return ledger;
  }

  /**
   * The ledger as a sync's planner reads it: hashes by the position of the remote listing that
   * holds each key (`index`, over `positions` remote rows). See domain/ledger-by-position.ts.
   */
  async readLedgerByPosition(chatbot: string, index: RemoteKeyIndex, positions: number): Promise<LedgerByPosition> {
    const ledger = new LedgerByPosition(index, positions);
    await this.scan(chatbot, index.keyType, (key, entry) => ledger.add(key, entry.hash));
    return ledger;
  }

  private async scan(chatbot: string, keyType: SyncKeyType, onEntry: (key: string, entry: LedgerEntry) => void): Promise<void> {
    let cursor = '0';
    do {
      const [next, flat] = await this.redis.hscan(this.keys.ledger(chatbot, keyType), cursor, 'COUNT', 5000);
      cursor = next;
      for (let i = 0; i + 1 < flat.length; i += 2) {
        const entry = decodeLedgerEntry(flat[i + 1] as string);
        if (entry) onEntry(flat[i] as string, entry);
      }
    } while (cursor !== '0');
  }

  async getEntry(chatbot: string, keyType: SyncKeyType, key: string): Promise<LedgerEntry | undefined> {
    const text = await this.redis.hget(this.keys.ledger(chatbot, keyType), key);
    return text === null ? undefined : decodeLedgerEntry(text);
  }

  /** Records a write unless a newer run already wrote/deleted the key; returns that newer run id if so. */
  async recordWrite(chatbot: string, keyType: SyncKeyType, key: string, entry: LedgerEntry): Promise<string | undefined> {
    const reply = await runLua(
      this.redis,
      RECORD_WRITE,
      [this.keys.ledger(chatbot, keyType), this.keys.tombstones(chatbot, keyType)],
      [key, entry.runId, encodeLedgerEntry(entry)],
    );
    return typeof reply === 'string' ? reply : undefined;
  }

  /**
   * Adopts listings the chatbot already held, unchanged, into the ledger. HSETNX: an entry a job
   * wrote meanwhile is never replaced. Sent in pipelined chunks: the first run of a big chatbot
   * adopts everything at once.
   */
  async adopt(chatbot: string, keyType: SyncKeyType, entries: ReadonlyArray<{ key: string; entry: LedgerEntry }>): Promise<void> {
    const CHUNK = 1000;
    const ledgerKey = this.keys.ledger(chatbot, keyType);
    for (let i = 0; i < entries.length; i += CHUNK) {
      const pipeline = this.redis.pipeline();
      for (const { key, entry } of entries.slice(i, i + CHUNK)) pipeline.hsetnx(ledgerKey, key, encodeLedgerEntry(entry));
      await pipeline.exec();
    }
  }

  /** Records a delete (entry removed, tombstone kept) unless a newer run touched the key. */
  async recordDelete(chatbot: string, keyType: SyncKeyType, key: string, runId: string): Promise<string | undefined> {
    const reply = await runLua(
      this.redis,
      RECORD_DELETE,
      [this.keys.ledger(chatbot, keyType), this.keys.tombstones(chatbot, keyType)],
      [key, runId],
    );
    return typeof reply === 'string' ? reply : undefined;
  }

  /** The run newer than `runId` that already wrote or deleted `key`, if any (the superseded check). */
  async newerWriter(chatbot: string, keyType: SyncKeyType, key: string, runId: string): Promise<string | undefined> {
    return (await this.probe(chatbot, keyType, key, runId)).newerRun;
  }

  /** The keys (of `keys`) that a run newer than `runId` wrote or deleted, in one round trip. */
  async newerWriters(chatbot: string, keyType: SyncKeyType, keys: readonly string[], runId: string): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const replies = await this.redis
      .pipeline()
      .hmget(this.keys.ledger(chatbot, keyType), ...keys)
      .hmget(this.keys.tombstones(chatbot, keyType), ...keys)
      .exec();
    const entries = (replies?.[0]?.[1] ?? []) as Array<string | null>;
    const deleters = (replies?.[1]?.[1] ?? []) as Array<string | null>;
    const newer = new Set<string>();
    keys.forEach((key, i) => {
      const writer = entries[i] ? decodeLedgerEntry(entries[i])?.runId : undefined;
      const deleter = deleters[i];
      if ((writer !== undefined && writer > runId) || (typeof deleter === 'string' && deleter > runId)) newer.add(key);
    });
    return newer;
  }

  /**
   * The superseded check and the current entry, without claiming anything (tools and tests; a
   * job's pre-write probe is write-claims.ts). Two HGETs sent together.
   */
  async probe(chatbot: string, keyType: SyncKeyType, key: string, runId: string): Promise<LedgerProbe> {
    const [entryText, deleter] = await Promise.all([
      this.redis.hget(this.keys.ledger(chatbot, keyType), key),
      this.redis.hget(this.keys.tombstones(chatbot, keyType), key),
    ]);
    const probe: LedgerProbe = {};
    const entry = typeof entryText === 'string' ? decodeLedgerEntry(entryText) : undefined;
    if (entry) probe.entry = entry;
    if (entry && entry.runId > runId) probe.newerRun = entry.runId;
    else if (typeof deleter === 'string' && deleter > runId) probe.newerRun = deleter;
    return probe;
  }
}
