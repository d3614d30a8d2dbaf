/**
 * Reads everything a chatbot holds (RealEstateList, paged) into a RemoteSnapshot, and says
 * whether that read can be trusted for deletes (complete) or not (incompleteReasons).
 */
import pLimit from 'p-limit';
import type { ApiClient } from '../api/client-contract.js';
import { listPager, pageCountOf, type ListPage, type ListPager } from '../api/list-pages.js';
import { normaliseReadItem } from '../api/normalise-read.js';
import type { ReadRetrySchedule } from '../net/retry-read.js';
import type { RetryTable } from '../api/retry-policy.js';
import type { RemoteSnapshot } from '../domain/snapshot/remote.js';
import { RemoteTableBuilder, type RemoteTable } from '../domain/snapshot/remote-table.js';
import { coerceError, errorFields, ListingSyncError } from '../shared/errors.js';
import { ErrorCode } from '../shared/error-codes.js';
import { count, plural } from '../shared/counts.js';

export interface SnapshotOptions {
  chatbot: string;
  /**
   * Largest page size the service accepts (the simulator's default maximum is 100). A service that
   * silently answers fewer is read at the size its page 1 shows (see list-pages.ts).
   */
  pageSize: number;
  /** Pages in flight at once once VirtualCount is known. */
  concurrency: number;
  /** Whole re-reads allowed when the list changed while it was paged. */
  maxRereads: number;
  /** The configured retry table (config.api.retryTable): which failed page reads are tried again. */
  retryTable: RetryTable;
  /** Attempts and delays of one page read (SNAPSHOT_READ_RETRY when absent). */
  retry?: ReadRetrySchedule;
  /** Called after every page with items read so far and the expected total. */
  onProgress?: (read: number, total: number) => void;
  signal?: AbortSignal;
}

export const DEFAULT_SNAPSHOT_OPTIONS = { pageSize: 100, concurrency: 4, maxRereads: 2 } as const;

/**
 * How patiently a page is read. Why 5 attempts up to 5 s apart: one page that cannot be read
 * makes the whole snapshot incomplete (no deletes), so a read rides out a short outage.
 */
export const SNAPSHOT_READ_RETRY: ReadRetrySchedule = { attempts: 5, baseMs: 200, maxMs: 5_000 };

interface ReadAttempt {
  /** The listings read, in service order (by ID), each ID once. */
  table: RemoteTable;
  virtualCount: number;
  failedPages: Array<{ page: number; error: string }>;
  drift: string[];
}

/**
 * Listings as their pages arrive: each page is normalised into the table at once, so only the
 * table and the pages in flight are held, never every raw item (1M listings: gigabytes).
 * Exported for bench:plan, which builds its remote through it exactly as a read does.
 */
export class PageCollector {
  private readonly builder: RemoteTableBuilder;
  // Why typed arrays: at 1M listings, number[]s grown by push leave tens of MiB of dead copies.
  private ids: Float64Array;
  private pages: Uint32Array;
  private count = 0;

  constructor(expected: number) {
    this.builder = new RemoteTableBuilder(expected);
    this.ids = new Float64Array(Math.max(16, expected));
    this.pages = new Uint32Array(this.ids.length);
  }

  add(result: ListPage): void {
    for (const item of result.items) {
      this.builder.add(normaliseReadItem(item));
      if (this.count === this.ids.length) this.grow();
      this.ids[this.count] = item.ID;
      this.pages[this.count++] = result.page;
    }
  }

  private grow(): void {
    const ids = new Float64Array(Math.ceil(this.ids.length * 1.5));
    const pages = new Uint32Array(ids.length);
    ids.set(this.ids);
    pages.set(this.pages);
    this.ids = ids;
    this.pages = pages;
  }

  /** The table in service order (by ID); an ID read on two pages is kept once, from the lower page, and reported. */
  finish(drift: string[]): RemoteTable {
    const { ids, pages } = this;
    const rows = new Uint32Array(this.count).map((_, row) => row);
    rows.sort((a, b) => (ids[a] as number) - (ids[b] as number) || (pages[a] as number) - (pages[b] as number));
    const kept = new Uint32Array(rows.length);
    let length = 0;
    for (const row of rows) {
      const previous = length === 0 ? undefined : (kept[length - 1] as number);
      if (previous !== undefined && ids[previous] === ids[row])
        drift.push(`listing ID ${ids[row]} seen on pages ${pages[previous]} and ${pages[row]}`);
      else kept[length++] = row;
    }
    return this.builder.build(kept.subarray(0, length));
  }
}

async function readOnce(pager: ListPager, options: SnapshotOptions): Promise<ReadAttempt> {
  // The first page must succeed: without VirtualCount there is nothing to check against.
  const first = await pager.read(1).catch((thrown: unknown) => {
    throw isChatbotNotFound(thrown) ? chatbotNotFoundError([options.chatbot]) : thrown;
  });
  const total = first.virtualCount;
  // Why page 1's count and not each page's: a count that changes while paging is drift, reported below.
  // Why the pager's size: page 1 may have shown a silent cap, and the pages after it are counted in it.
  const pageCount = pageCountOf(total, pager.pageSize);
  const collected = new PageCollector(total);
  collected.add(first);
  let read = first.items.length;
  options.onProgress?.(read, total);

  const limit = pLimit(options.concurrency);
  const failedPages: ReadAttempt['failedPages'] = [];
  const counts = await Promise.all(
    Array.from({ length: pageCount - 1 }, (_, i) => i + 2).map((page) =>
      limit(async () => {
        try {
          const result = await pager.read(page);
          collected.add(result);
          read += result.items.length;
          options.onProgress?.(read, total);
          return { page, virtualCount: result.virtualCount };
        } catch (error) {
          failedPages.push({ page, error: coerceError(error).message });
          return undefined;
        }
      }),
    ),
  );
  failedPages.sort((a, b) => a.page - b.page);
  const drift: string[] = [];
  const changedCount = counts.find((p) => p !== undefined && p.virtualCount !== total);
  if (changedCount !== undefined) {
    drift.push(`VirtualCount changed while paging (${total} on page 1, ${changedCount.virtualCount} on page ${changedCount.page})`);
  }
  const table = collected.finish(drift);
  if (failedPages.length === 0 && table.length !== total) {
    drift.push(`read ${plural(table.length, 'listing')} but VirtualCount is ${count(total)}`);
  }
  return { table, virtualCount: total, failedPages, drift };
}

/**
 * True when the service said it does not know the chatbot: RealEstateList answered envelope
 * Code 404. Read by field, not class: errors may have been serialised.
 */
export function isChatbotNotFound(thrown: unknown): boolean {
  const { code, details } = errorFields(thrown);
  return code === ErrorCode.ENVELOPE_FAILURE && details.envelopeCode === 404;
}

/**
 * The one error a sync or a bulk edit stops with, before anything is enqueued, when the service
 * does not know chatbots. Why stop: every job of the run would fail the same way, one "not found"
 * per listing. Code CHATBOT_NOT_FOUND: the CLI exits 2 (fix the input and run again).
 */
export function chatbotNotFoundError(chatbots: readonly string[]): ListingSyncError {
  const which = chatbots.length === 1 ? `chatbot ${chatbots[0] ?? ''} is` : `chatbots ${chatbots.join(', ')} are`;
  return new ListingSyncError(
    ErrorCode.CHATBOT_NOT_FOUND,
    `${which} not known to the service (RealEstateList answered Code 404): check the serial number, and that ` +
      `API_BASE_URL and the keys are those of the account that holds it; nothing was enqueued or changed`,
    { details: { chatbots: [...chatbots] } },
  );
}

/**
 * The chatbots among `chatbots` the service does not know, asked one small RealEstateList page
 * each (bounded fan-out, reads retried as the snapshot's are, with the configured `retryTable`). Other read errors are thrown.
 */
export async function unknownChatbots(
  api: ApiClient,
  chatbots: readonly string[],
  options: { retryTable: RetryTable; concurrency?: number; signal?: AbortSignal },
): Promise<string[]> {
  const limit = pLimit(options.concurrency ?? DEFAULT_SNAPSHOT_OPTIONS.concurrency);
  const retry = { ...SNAPSHOT_READ_RETRY, table: options.retryTable };
  const known = await Promise.all(
    chatbots.map((chatbot) =>
      limit(async () => {
        try {
          await listPager(api, { SerialNumber: chatbot }, { pageSize: 1, retry, signal: options.signal }).read(1);
          return true;
        } catch (thrown) {
          if (isChatbotNotFound(thrown)) return false;
          throw thrown;
        }
      }),
    ),
  );
  return chatbots.filter((_, i) => known[i] === false);
}

/**
 * Pages through the chatbot's listings. A snapshot whose list drifted while it was paged is
 * re-read up to `maxRereads` times; if it still drifts, or a page failed after its retries,
 * it is returned with complete=false so that no delete is ever planned from it.
 */
export async function readRemoteSnapshot(api: ApiClient, options: SnapshotOptions): Promise<RemoteSnapshot> {
  const retry = { ...(options.retry ?? SNAPSHOT_READ_RETRY), table: options.retryTable };
  const pager = listPager(api, { SerialNumber: options.chatbot }, { pageSize: options.pageSize, retry, signal: options.signal });
  let attempt = await readOnce(pager, options);
  for (let reread = 0; reread < options.maxRereads && attempt.failedPages.length === 0 && attempt.drift.length > 0; reread += 1) {
    attempt = await readOnce(pager, options);
  }
  const incompleteReasons = [
    ...attempt.failedPages.map((f) => `page ${f.page} could not be read: ${f.error}`),
    ...attempt.drift.slice(0, 5),
  ];
  if (attempt.drift.length > 5) incompleteReasons.push(`… and ${count(attempt.drift.length - 5)} more signs of drift`);
  return {
    chatbot: options.chatbot,
    // In service order (by ID) so downstream output is deterministic.
    rows: attempt.table,
    virtualCount: attempt.virtualCount,
    complete: incompleteReasons.length === 0,
    incompleteReasons,
  };
}
