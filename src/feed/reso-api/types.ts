/**
 * What replication hands its caller. Declared apart so the pager, the media step and the
 * top-level function share them without importing each other.
 */

/** One record as the server sent it (RESO Data Dictionary names), with `Media` in `Order` when asked for. */
export type ResoRecord = Record<string, unknown>;

/** What one replication run did; complete only when the last page was read. */
export interface ReplicationResult {
  /**
   * Every page was read to the end. False after a halt (budget, 429s, an error), an abort, or a
   * caller that stopped early: a sweep that is not complete must delete nothing.
   */
  complete: boolean;
  /**
   * The largest ModificationTimestamp received, as the server wrote it: the next watermark, to be
   * stored only after what was received is enqueued. Also valid after a halt: pages come in
   * timestamp order, so everything stamped before it was received (what shares its stamp is
   * read again by the next run's `ge`).
   */
  maxTimestamp: string | undefined;
  /** Requests sent to the feed server (token requests excluded), refused and repeated ones included. */
  requests: number;
  /** Bytes of every answer from the feed server. */
  bytes: number;
  /** Property records received (a record changed during the pull may come twice). */
  records: number;
  /** Records the server counted for the pull (`@odata.count`); absent from a server that does not count. */
  expected?: number;
  /** Records per page asked (Prefer: odata.maxpagesize); the server may serve fewer. */
  pageSize: number;
  /** How the pages after the first were reached (the server's nextLinks, or continuing by key); undefined when there was only one. */
  pagedBy: 'nextLink' | 'key' | undefined;
  /** Where photos came from: `$expand=Media`, the Media resource (when `$expand` was refused), or nowhere. */
  media: 'expand' | 'resource' | 'none';
}
