/**
 * The demo's hosted photos: a file media store in a temporary directory and a web server over it
 * on 127.0.0.1, whose address is the `--media-base-url`, so the MLS act replicates the RESO
 * simulator's photos into the store and every Image the chatbot receives is a rehosted one. It
 * serves exactly what a production web server over the directory would: `GET /photos/<object key>`
 * with the key's content type, nothing else (no listing, no path outside the directory).
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { contentTypeOfKey, isObjectKey } from '../../feed/media/object-key.js';

const PATH = '/photos/';

export interface DemoPhotos {
  /** `file:///…`: the store's URL (`--media-store`). */
  storeUrl: string;
  /** `http://127.0.0.1:PORT/photos`: where its objects are served (`--media-base-url`). */
  baseUrl: string;
  /** The store's directory. */
  dir: string;
  /** Stops the server and removes the directory. */
  close(): Promise<void>;
}

function serve(dir: string): Server {
  return createServer((req, res) => {
    const key = (req.url ?? '').startsWith(PATH) ? decodeURIComponent((req.url ?? '').slice(PATH.length).split('?')[0] ?? '') : '';
    const path = join(dir, key);
    void (async () => {
      const found =
        isObjectKey(key) && (req.method === 'GET' || req.method === 'HEAD') ? await stat(path).catch(() => undefined) : undefined;
      if (found?.isFile() !== true) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found.\n');
        return;
      }
      res.writeHead(200, {
        'content-type': contentTypeOfKey(key),
        'content-length': String(found.size),
        // Why immutable: the key is the hash of the bytes, so an object's content never changes.
        'cache-control': 'public, max-age=31536000, immutable',
      });
      if (req.method === 'HEAD') res.end();
      else createReadStream(path).pipe(res);
    })();
  });
}

/** Makes the store's directory and starts its server on a free loopback port. */
export async function startDemoPhotos(): Promise<DemoPhotos> {
  const dir = await mkdtemp(join(tmpdir(), 'listing-sync-demo-photos-'));
  const server = serve(dir);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
  } catch (thrown) {
    await rm(dir, { recursive: true, force: true });
    throw thrown;
  }
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    storeUrl: pathToFileURL(dir).href,
    baseUrl: `http://127.0.0.1:${port}${PATH.slice(0, -1)}`,
    dir,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
