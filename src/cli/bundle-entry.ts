/**
 * The one entry of the shipped bundle (dist/cli/bundle.cjs, written by scripts/build-bundle.ts):
 * the CLI and the two worker threads it starts are parts of the same script, so the three share
 * one compiled copy on disk and one V8 code cache (see bundle-loader.ts). Each part is imported
 * only when it runs: a thread never initialises the CLI's modules, and the CLI never the threads'.
 */
export type BundlePart = 'cli' | 'enqueue-thread' | 'feed-thread';

export async function startPart(part: BundlePart): Promise<void> {
  switch (part) {
    case 'cli':
      await import('./main.js');
      return;
    case 'enqueue-thread':
      await import('../queue/enqueue-worker.js');
      return;
    case 'feed-thread':
      await import('../feed/feed-worker.js');
      return;
  }
}
