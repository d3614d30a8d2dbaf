/**
 * One row of the ledger: what listing-sync last wrote (or adopted) for a chatbot + key.
 * Stored in Redis by src/store/ledger.ts; read whole as a map (CompactLedger) by tools and tests,
 * and by a sync as hashes by remote position (ledger-by-position.ts).
 */
import { hashParts, joinedHash } from './hash.js';

export interface LedgerEntry {
  /**
   * Content hash of the listing as last written, with its field digests after a '.' (domain/hash.ts
   * recordedHash); entries written before the digests were kept hold the content hash alone.
   */
  hash: string;
  /** Service-issued id, when known. */
  remoteId?: string;
  /** Epoch ms of the write. */
  writtenAt: number;
  /** The run whose job wrote it; a job of an older run never overwrites a newer one. */
  runId: string;
}

/** Ledger entries of one chatbot by listing key. */
export type Ledger = ReadonlyMap<string, LedgerEntry>;

const HEX_HASH = /^[0-9a-f]{64}$/;
const HASH_BYTES = 32;
const BLOCK = 1 << 16;

/**
 * A Ledger that keeps each entry in typed-array blocks instead of an object: the hash as its 32
 * bytes, the time as a double, the run as an index into the run ids seen, the remote id as a
 * number when it is a canonical integer. About 190 → 110 bytes per entry (1M entries: ~80 MiB
 * less). `get` builds the LedgerEntry on demand, equal to the one added (hex hash, same fields).
 */
export class CompactLedger implements ReadonlyMap<string, LedgerEntry> {
  private readonly slots = new Map<string, number>();
  private readonly hashes: Buffer[] = [];
  private readonly numbers: Float64Array[] = [];
  private readonly runs: Uint32Array[] = [];
  private readonly runIds: string[] = [];
  private readonly runIndex = new Map<string, number>();
  /** Hashes that are not 64 lower-case hex digits, and remote ids that are not canonical integers, by slot. */
  private readonly oddHashes = new Map<number, string>();
  private readonly oddRemoteIds = new Map<number, string>();
  /** The field digests recorded after each hash (hash.ts recordedHash), by slot. */
  private readonly digests = new Map<number, string>();
  private count = 0;

  get size(): number {
    return this.slots.size;
  }

  /** Adds or replaces the entry of `key`. */
  set(key: string, entry: LedgerEntry): this {
    let slot = this.slots.get(key);
    if (slot === undefined) {
      slot = this.count++;
      this.slots.set(key, slot);
      if (slot % BLOCK === 0) {
        this.hashes.push(Buffer.alloc(BLOCK * HASH_BYTES));
        this.numbers.push(new Float64Array(BLOCK * 2));
        this.runs.push(new Uint32Array(BLOCK));
      }
    }
    const block = Math.floor(slot / BLOCK);
    const offset = slot % BLOCK;
    this.oddHashes.delete(slot);
    this.oddRemoteIds.delete(slot);
    const { hash, digests } = hashParts(entry.hash);
    if (digests === undefined) this.digests.delete(slot);
    else this.digests.set(slot, digests);
    if (HEX_HASH.test(hash)) (this.hashes[block] as Buffer).write(hash, offset * HASH_BYTES, HASH_BYTES, 'hex');
    else this.oddHashes.set(slot, hash);
    const numbers = this.numbers[block] as Float64Array;
    numbers[offset * 2] = entry.writtenAt;
    const remoteId = entry.remoteId === undefined ? Number.NaN : Number(entry.remoteId);
    if (Number.isSafeInteger(remoteId) && String(remoteId) === entry.remoteId) numbers[offset * 2 + 1] = remoteId;
    else {
      numbers[offset * 2 + 1] = Number.NaN;
      if (entry.remoteId !== undefined) this.oddRemoteIds.set(slot, entry.remoteId);
    }
    let run = this.runIndex.get(entry.runId);
    if (run === undefined) {
      run = this.runIds.push(entry.runId) - 1;
      this.runIndex.set(entry.runId, run);
    }
    (this.runs[block] as Uint32Array)[offset] = run;
    return this;
  }

  has(key: string): boolean {
    return this.slots.has(key);
  }

  get(key: string): LedgerEntry | undefined {
    const slot = this.slots.get(key);
    return slot === undefined ? undefined : this.entryAt(slot);
  }

  private entryAt(slot: number): LedgerEntry {
    const block = Math.floor(slot / BLOCK);
    const offset = slot % BLOCK;
    const content =
      this.oddHashes.get(slot) ?? (this.hashes[block] as Buffer).toString('hex', offset * HASH_BYTES, (offset + 1) * HASH_BYTES);
    const digests = this.digests.get(slot);
    const hash = digests === undefined ? content : joinedHash(content, digests);
    const numbers = this.numbers[block] as Float64Array;
    const entry: LedgerEntry = {
      hash,
      writtenAt: numbers[offset * 2] as number,
      runId: this.runIds[(this.runs[block] as Uint32Array)[offset] as number] as string,
    };
    const remoteId = numbers[offset * 2 + 1] as number;
    const oddRemoteId = this.oddRemoteIds.get(slot);
    if (!Number.isNaN(remoteId)) entry.remoteId = String(remoteId);
    else if (oddRemoteId !== undefined) entry.remoteId = oddRemoteId;
    return entry;
  }

  *entries(): MapIterator<[string, LedgerEntry]> {
    for (const [key, slot] of this.slots) yield [key, this.entryAt(slot)];
  }

  keys(): MapIterator<string> {
    return this.slots.keys();
  }

  *values(): MapIterator<LedgerEntry> {
    for (const slot of this.slots.values()) yield this.entryAt(slot);
  }

  [Symbol.iterator](): MapIterator<[string, LedgerEntry]> {
    return this.entries();
  }

  forEach(callback: (value: LedgerEntry, key: string, map: ReadonlyMap<string, LedgerEntry>) => void, thisArg?: unknown): void {
    for (const [key, slot] of this.slots) callback.call(thisArg, this.entryAt(slot), key, this);
  }
}
