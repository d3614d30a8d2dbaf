/**
 * Local copies of the URL bodies one fan-out reads (`fleet run SOURCE` of a file source given by
 * URL): the first chatbot's sync fetches each URL (the feed, and each OData page it links to) and
 * keeps the body it read to its end in a temp file; every later chatbot's sync reads that file
 * instead of asking the server again. So the server is asked once per run of the source, however
 * many chatbots are on it.
 *
 * Why only bodies read to their end: a sync that stopped early (refused at the header, a failed
 * read) leaves no copy, and the next chatbot fetches the URL itself, exactly as before.
 * Copies live for one fan-out (`close()` removes them) and hold no credential: the file name is
 * a counter, and the URL (which may hold a user or a token) stays in memory only.
 */
import { createWriteStream, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';

/** A body kept whole: its file and what the server said of it. */
interface KeptBody {
  path: string;
  contentType: string | undefined;
}

/** What a copy needs of a fetched body (byte-source.ts ByteSource has these). */
interface FetchedBody {
  readonly chunks: AsyncIterable<Uint8Array>;
  readonly contentType: string | undefined;
}

export class UrlCopies {
  private readonly kept = new Map<string, KeptBody>();
  private readonly dir: string;
  private next = 0;

  /** Copies go to a fresh directory under `parentDir` (the OS temp directory). */
  constructor(parentDir: string) {
    this.dir = mkdtempSync(join(parentDir, 'listing-sync-feed-'));
  }

  /** The kept body of `url`, when an earlier read of it reached its end. */
  copyOf(url: string): KeptBody | undefined {
    return this.kept.get(url);
  }

  /**
   * `source` (the body of `url` as fetched) with its chunks written to a copy as they are read;
   * the copy is kept once the last chunk was read, and dropped when the read stops before.
   */
  keeping<Body extends FetchedBody>(url: string, source: Body): Body {
    const path = join(this.dir, `body-${(this.next += 1)}`);
    const kept = this.kept;
    async function* chunks(): AsyncGenerator<Uint8Array> {
      const file: WriteStream = createWriteStream(path);
      let whole = false;
      try {
        for await (const chunk of source.chunks) {
          if (!file.write(chunk)) await new Promise<void>((resolve) => file.once('drain', resolve));
          yield chunk;
        }
        whole = true;
      } finally {
        await new Promise<void>((resolve) => file.end(resolve));
        if (whole) kept.set(url, { path, contentType: source.contentType });
        else rmSync(path, { force: true });
      }
    }
    return { ...source, chunks: chunks() };
  }

  /** Removes every copy. */
  close(): void {
    this.kept.clear();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
