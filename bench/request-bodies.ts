/**
 * The baselines' request bodies (wire-feed.ts writeWireFiles: one JSON body a line), read back.
 * A module of its own, importing nothing but node:fs: what the baselines load is part of the CPU
 * they measure, against which the CLI's is compared.
 */
import { readFile } from 'node:fs/promises';

export async function readRequestBodies(path: string): Promise<unknown[]> {
  return (await readFile(path, 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown);
}
