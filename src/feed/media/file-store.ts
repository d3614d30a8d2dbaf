/**
 * The file store (`file:///ABS/DIR`), the embedded default for one machine: the object `KEY` is
 * the file `DIR/KEY`, ready to be served by any web server over the directory. A download is
 * staged in `DIR/.incoming/` and renamed into place, so a reader never sees half a photo.
 */
import { mkdirSync } from 'node:fs';
import { readdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { MediaStore, StoredObject } from './media-store.js';
import { isObjectKey } from './object-key.js';

const STAGING = '.incoming';

/** A file store over the absolute directory `dir` (created when missing). */
export function fileMediaStore(url: string, dir: string): MediaStore {
  const stagingDir = join(dir, STAGING);
  mkdirSync(stagingDir, { recursive: true });
  const pathOf = (key: string): string => {
    if (!isObjectKey(key)) throw new Error(`not an object key: ${key}`);
    return join(dir, key);
  };
  return {
    url,
    stagingDir,
    async put(key, path) {
      // Why rename even over an existing object: the bytes are equal by construction (the key is their hash).
      await rename(path, pathOf(key));
    },
    async has(key) {
      return (await stat(pathOf(key)).catch(() => undefined))?.isFile() === true;
    },
    async *list(): AsyncIterable<StoredObject> {
      for (const name of await readdir(dir)) {
        if (!isObjectKey(name)) continue;
        const found = await stat(join(dir, name)).catch(() => undefined);
        if (found?.isFile() === true) yield { key: name, modifiedMs: found.mtimeMs, bytes: found.size };
      }
    },
    async remove(key) {
      await unlink(pathOf(key)).catch((thrown: unknown) => {
        if ((thrown as { code?: unknown }).code !== 'ENOENT') throw thrown;
      });
    },
    // Why nothing to release: another process may be staging into the same directory.
    close: () => Promise.resolve(),
  };
}
