/**
 * A media host on loopback for the photo download tests: a node:http server answering with the
 * test's handler, the paths it was asked for in order, and a temp directory for the store; both
 * closed and removed after each test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

export type MediaHandler = (req: IncomingMessage, res: ServerResponse, hit: number) => void;

export interface LoopbackMediaHost {
  url: string;
  dir: string;
  /** Request paths in the order the server saw them. */
  seen: string[];
}

/** A starter of media hosts, each closed after its test (call at the top of a test file). */
export function loopbackMediaHosts(label: string): (handler: MediaHandler) => Promise<LoopbackMediaHost> {
  const open: Array<{ server: Server; dir: string }> = [];
  afterEach(async () => {
    for (const { server, dir } of open.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
  return async (handler) => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(req.url ?? '');
      handler(req, res, seen.length);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const dir = mkdtempSync(join(tmpdir(), label));
    open.push({ server, dir });
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, dir, seen };
  };
}
