/**
 * The demo's dashboard port, checked before the demo does any work: a port in use is one line
 * naming `--port` at the start, not a raw EADDRINUSE after the sync and the replication ran.
 */
import { createServer } from 'node:net';
import { UsageError } from '../../shared/errors.js';

/** Resolves when `port` on `host` can be listened on now (0 always can); a UsageError naming --port when it is taken. */
export async function checkDemoPort(port: number, host: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EADDRINUSE') return reject(error);
      reject(
        new UsageError(`port ${port} on ${host} is in use (another demo or dashboard?): pass --port N, or --port 0 for any free port`),
      );
    });
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/** The demo's prefix: LISTING_SYNC_PREFIX when set, else `listing-sync-demo`. */
export function demoPrefix(env: Readonly<Record<string, string | undefined>>): string {
  const prefix = env.LISTING_SYNC_PREFIX?.trim() || DEFAULT_DEMO_PREFIX;
  // Why 'demo' in the name: the demo deletes every key under its prefix first, and a prefix that
  // an installation uses (the default `listing-sync`) must never be wiped by trying the demo.
  if (!prefix.includes('demo'))
    throw new UsageError(
      `LISTING_SYNC_PREFIX=${prefix}: the demo deletes every key under its prefix first, so it only runs under one ` +
        `whose name contains 'demo' (e.g. ${prefix}-demo); unset it for the default ${DEFAULT_DEMO_PREFIX}`,
    );
  return prefix;
}

export const DEFAULT_DEMO_PREFIX = 'listing-sync-demo';
