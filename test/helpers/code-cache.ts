/** Whether V8 accepts the code cache `cache` for the bundle `bundle`, compiled as the loader compiles it (its flags set). */
import { readFileSync } from 'node:fs';
import { Script } from 'node:vm';
import { setBundleFlags } from '../../src/cli/bundle-loader.js';

export function codeCacheAccepted(bundle: string, cache: string): boolean {
  setBundleFlags();
  const source = readFileSync(bundle, 'latin1');
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: 'code-cache-check.cjs',
    cachedData: readFileSync(cache),
  });
  return !script.cachedDataRejected;
}
