/**
 * Leak guard (graphile-worker's test helpers do the same): a test file that leaves a server, a
 * socket (a Redis connection, a worker, a queue), a worker thread or a child process open fails, naming what it
 * left. Without it a leak shows up much later as a hung or flaky run.
 */
import { afterAll, beforeAll } from 'vitest';

// MessagePort: a worker thread (the feed reader's) that was never terminated.
const WATCHED = ['TCPServerWrap', 'TCPSocketWrap', 'ProcessWrap', 'PipeServerWrap', 'MessagePort'] as const;

function counts(): Map<string, number> {
  const result = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) result.set(kind, (result.get(kind) ?? 0) + 1);
  return result;
}

let baseline = new Map<string, number>();

beforeAll(() => {
  baseline = counts();
});

afterAll(async () => {
  // Closing is asynchronous: give sockets that were already told to close a moment to go.
  let leaked: string[] = [];
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const now = counts();
    leaked = WATCHED.filter((kind) => (now.get(kind) ?? 0) > (baseline.get(kind) ?? 0)).map(
      (kind) => `${kind} ×${(now.get(kind) ?? 0) - (baseline.get(kind) ?? 0)}`,
    );
    if (leaked.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`test file left open: ${leaked.join(', ')} (close every server, worker, queue and connection it opens)`);
});
