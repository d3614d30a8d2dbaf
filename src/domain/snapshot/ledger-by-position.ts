/**
 * A sync's ledger, held by remote position: each entry whose key the chatbot holds is stored at
 * the position of that listing (RemoteKeyIndex), as its 32 hash bytes; no key string, no map.
 *
 * Why: at 1M listings a ledger keyed by string (CompactLedger) costs ~110 bytes an entry (key
 * string, map entry, hash, time, run, remote id) and one more 1M-entry map lookup per feed row;
 * the planner needs only "managed?" and the hash, for listings it has already found by key.
 */
import { hashParts } from '../hash.js';
import type { PlanningLedger } from '../planning-ledger.js';
import type { RemoteKeyIndex } from './remote-key-index.js';

const HEX_HASH = /^[0-9a-f]{64}$/;
const HASH_BYTES = 32;
/** Field digests (hash.ts fieldDigests): 16 bits for each of the 32 write-shape fields. */
const DIGEST_BYTES = 64;
const ABSENT = 0;
const HEX = 1;
const ODD = 2;

export class LedgerByPosition implements PlanningLedger {
  private readonly hashes: Buffer;
  /** Per position: ABSENT, HEX (hash in `hashes`) or ODD (hash in `oddHashes`). */
  private readonly kinds: Uint8Array;
  /** Hashes that are not 64 lower-case hex digits (entries written by hand or by old versions). */
  private readonly oddHashes = new Map<number, string>();
  /** Field digests by position, allocated with the first entry that has them; `hasDigests` marks the positions that do. */
  private digests: Buffer | undefined;
  private readonly hasDigests: Uint8Array;
  /** Keys in the ledger that no remote listing holds: they count towards `size`, never towards `heldBy`. */
  private readonly elsewhere = new Set<string>();
  private held = 0;

  /** `positions`: the remote rows' length; `index`: their keys (the same rows). */
  constructor(
    private readonly index: RemoteKeyIndex,
    positions: number,
  ) {
    this.hashes = Buffer.alloc(positions * HASH_BYTES);
    this.kinds = new Uint8Array(positions);
    this.hasDigests = new Uint8Array(positions);
  }

  /** Records one ledger entry's hash (with its digests); a key read twice (HSCAN may repeat keys) keeps the last. */
  add(key: string, recorded: string): void {
    const { hash, digests } = hashParts(recorded);
    const position = this.index.kept.get(key);
    if (position === undefined) {
      this.elsewhere.add(key);
      return;
    }
    if (this.kinds[position] === ABSENT) this.held += 1;
    if (HEX_HASH.test(hash)) {
      this.hashes.write(hash, position * HASH_BYTES, HASH_BYTES, 'hex');
      this.kinds[position] = HEX;
      this.oddHashes.delete(position);
    } else {
      this.kinds[position] = ODD;
      this.oddHashes.set(position, hash);
    }
    const bytes = digests === undefined ? undefined : Buffer.from(digests, 'base64url');
    if (bytes?.length === DIGEST_BYTES) {
      this.digests ??= Buffer.alloc(this.kinds.length * DIGEST_BYTES);
      bytes.copy(this.digests, position * DIGEST_BYTES);
      this.hasDigests[position] = 1;
    } else this.hasDigests[position] = 0;
  }

  get size(): number {
    return this.held + this.elsewhere.size;
  }

  /** Entries held by a remote listing. `index` must be the one this ledger was built with. */
  heldBy(index: RemoteKeyIndex): number {
    if (index !== this.index) throw new Error('LedgerByPosition.heldBy: asked about another key index than the one it was built with');
    return this.held;
  }

  has(_key: string, position: number): boolean {
    return this.kinds[position] !== ABSENT;
  }

  hashOf(_key: string, position: number): string | undefined {
    const kind = this.kinds[position];
    if (kind === HEX) return this.hashes.toString('hex', position * HASH_BYTES, (position + 1) * HASH_BYTES);
    return kind === ODD ? this.oddHashes.get(position) : undefined;
  }

  digestsOf(_key: string, position: number): string | undefined {
    if (this.hasDigests[position] !== 1 || this.digests === undefined) return undefined;
    return this.digests.toString('base64url', position * DIGEST_BYTES, (position + 1) * DIGEST_BYTES);
  }
}
