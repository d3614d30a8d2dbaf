/**
 * What a command opened, to be released when its action is over: each command pushes what it
 * opens (API client, call recorder, Redis connection, workers, servers, progress bars) with a
 * label, and main.ts releases everything in reverse order, whatever happened (success, error,
 * signal). A command that must release something mid-life (workers on a signal, a client it
 * needed only for a check) calls the release returned by `push`: each entry is released once,
 * however many times it is asked to.
 */

/** Releases one entry; the same promise every time it is called. */
export type Release = () => Promise<void>;

export interface ReleaseFailure {
  label: string;
  error: unknown;
}

export interface ReleaseStack {
  /** Adds what was just opened; the returned function releases it now (once, also if called again or by releaseAll). */
  push(label: string, release: () => Promise<void> | void): Release;
  /**
   * Releases every entry not released yet, newest first, one after the other (a client is closed
   * before the Redis connection it records into). A failing release does not stop the others: its
   * failure is returned. An entry already released through its own handle is only waited for (its
   * caller saw its failure).
   */
  releaseAll(): Promise<ReleaseFailure[]>;
  /** Labels of entries whose release has not finished (not started, or still running), newest first. */
  pending(): string[];
}

interface Entry {
  label: string;
  release: () => Promise<void> | void;
  started?: Promise<void>;
  settled: boolean;
}

function start(entry: Entry): Promise<void> {
  entry.started ??= (async () => {
    try {
      await entry.release();
    } finally {
      entry.settled = true;
    }
  })();
  return entry.started;
}

export function createReleaseStack(): ReleaseStack {
  const entries: Entry[] = [];
  return {
    push(label, release) {
      const entry: Entry = { label, release, settled: false };
      entries.push(entry);
      return () => start(entry);
    },
    async releaseAll() {
      const failures: ReleaseFailure[] = [];
      // Newest first; an entry pushed while releasing (a release that opens something) is released too.
      for (
        let entry = entries.findLast((e) => e.started === undefined);
        entry !== undefined;
        entry = entries.findLast((e) => e.started === undefined)
      ) {
        try {
          await start(entry);
        } catch (error) {
          failures.push({ label: entry.label, error });
        }
      }
      // Those released through their handle may still be running (a worker finishing its jobs).
      for (const entry of [...entries].reverse()) await entry.started?.catch(() => undefined);
      return failures;
    },
    pending() {
      return entries
        .filter((entry) => !entry.settled)
        .map((entry) => entry.label)
        .reverse();
    },
  };
}
