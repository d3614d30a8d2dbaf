/**
 * What reading a feed gives and takes (openFeed in open-feed.ts, its worker-thread form in
 * threaded-feed.ts, the row pipeline, a RESO pull): the shapes alone, so those files need not
 * import each other for them.
 */
import type { FeedHeader, FeedShape } from '../domain/feed-shape.js';
import type { DisplayReport } from '../domain/display-policy/display-report.js';
import type { ListingFields } from '../domain/listing.js';
import type { DisplaySettings } from './display-step.js';
import type { Where } from '../domain/where.js';

export interface FeedOptions {
  /** Local path or http(s) URL, used whole to read; only displaySource(source) is ever shown. */
  source: string;
  /** Starting profile; a mapping file that declares "profile" (even null) overrides it. */
  profile: 'native' | 'redfin' | 'reso';
  /** Path of a mapping JSON file (validated; MAPPING_INVALID lists every problem). */
  mapping?: string;
  keyType: 'MLSNumber' | 'URL';
  /** Default: from the extension, the content type, or the first non-space character. */
  format?: 'csv' | 'json' | 'ndjson';
  /** Default: sniffed from the header line among ',', ';', '\t', '|'. */
  delimiter?: string;
  /** Default 'utf-8'; any label TextDecoder knows ('latin1', 'windows-1252', 'utf-16le' …). */
  encoding?: string;
  /** Largest record accepted (default 1 MiB): guards against an unclosed quote swallowing the file. */
  maxRecordBytes?: number;
  /** For URLs: headers and idle-body timeout (default 30000). */
  timeoutMs?: number;
  /** How RESO 'Pending' maps (default 'active'). */
  resoPending?: 'active' | 'exclude';
  /** Most OData pages followed, the first included (default DEFAULT_FEED_LIMITS.maxPages). */
  maxPages?: number;
  /** Most bytes read from a feed URL, every page together (default DEFAULT_FEED_LIMITS.maxBytes). */
  maxBytes?: number;
  /**
   * Where the importer runs: 'worker' (a worker thread, threaded-feed.ts), 'main' (this thread),
   * or 'auto' (the default): a worker for a local file of WORKER_MIN_BYTES or more when the
   * machine has a second core.
   */
  thread?: 'auto' | 'main' | 'worker';
  /**
   * A fleet chatbot's filter on the source's own fields (record-filter.ts): a record outside it is
   * an `excluded` row counted in `outsideFilter`, not in `rows`. Plain data: it crosses to the feed's worker thread.
   */
  where?: Where;
  /** The MLS display policy and the instant the feed is read at (display-step.ts); absent: the defaults. */
  display?: DisplaySettings;
}

export type FeedRow =
  | {
      kind: 'listing';
      line: number;
      key: string;
      listing: ListingFields;
      /** The bits (domain/field-changes.ts filledBit) of the fields filled with their default for want of a value; absent when none. */
      filled?: number;
      /** The bits of the fields the record's display flags blank (the MLS's instruction: no wipe); absent when none. */
      instructed?: number;
    }
  | RejectedFeedRow
  /** `remove`: the display policy forbids the record, so a held listing is deleted whatever the mode. */
  | { kind: 'excluded'; line: number; key: string; reason: string; remove?: true };

/** A row that does not make a listing, with where and why; it holds its listing (never deleted for it). */
export interface RejectedFeedRow {
  kind: 'rejected';
  line: number;
  /** The row's key when it could be read (from a broken row too, where its position is intact). */
  key?: string;
  /** A broken row's possible keys (two or more) when which one it is cannot be told: each is held. */
  keyCandidates?: string[];
  /** The row is too broken to read its key: a run with such a row deletes nothing (see broken-row-keys.ts). */
  keyUnreadable?: true;
  field: string;
  value: string;
  reason: string;
}

export interface FeedStats {
  rows: number;
  valid: number;
  /** Rejected rows, duplicates included. */
  rejected: number;
  excluded: number;
  /** Rows rejected because their key was already seen (also counted in `rejected`). */
  duplicates: number;
  /** Per write-shape field, how many values of accepted rows were filled with the profile's default. */
  filledDefaults: Record<string, number>;
  /** Per "Field: why", values of accepted rows left empty because their legal source value has no equivalent (FieldRule.note). */
  leftEmpty?: Record<string, number>;
  /** With a `where`: records outside it (not counted in `rows`: they are not the chatbot's). */
  outsideFilter?: number;
  /**
   * With a `where` and at least one record read: its fields that no record carried (the filter then
   * matches nothing, so the sync refuses rather than delete the chatbot's listings), and names the records do carry.
   */
  whereNotCarried?: { fields: string[]; known: string[] };
  /** What the display policy withheld and did not publish (display-step.ts). */
  display?: DisplayReport;
}

export interface OpenFeed {
  /**
   * The rows in file order. Iterate once; iteration can still throw FEED_UNREADABLE for damage found later in the file
   * (bad bytes, truncated JSON).
   */
  rows: AsyncIterable<FeedRow>;
  stats(): FeedStats;
  /** Bytes read so far and total when known (progress bars). */
  progress(): { bytes: number; totalBytes?: number };
  /** Where the importer runs: this thread, or a worker thread (large local files, see openFeed). */
  readonly readIn: 'main' | 'worker';
  /** The columns and what the mapping reads, known once the feed is open (absent for a RESO pull, known only as it comes). */
  readonly header?: FeedHeader;
  /**
   * The shape of the records read (whole once the rows ended): undefined before the first record of
   * a pull, and before the end when the feed is read in a worker thread.
   */
  shape(): FeedShape | undefined;
}
