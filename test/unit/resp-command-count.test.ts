/**
 * bench:sync counts the Redis commands the CLI writes by reading RESP in place
 * (bench/redis-socket-counter.cts). The counts must match what is on the wire: strings and bytes
 * alike, pipelines, payloads that hold RESP-looking text, and strings that are not ASCII.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { runInThisContext } from 'node:vm';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import type * as SocketCounter from '../../bench/redis-socket-counter.cjs';

/**
 * The counter compiled from its source here. Why not an import: vitest does not compile .cts
 * modules, and the built copy in dist/ would tie this fast-tier test to a build.
 */
function loadCounter(): typeof SocketCounter {
  const source = readFileSync(new URL('../../bench/redis-socket-counter.cts', import.meta.url), 'utf8');
  const { code } = transformSync(source, { loader: 'ts', format: 'cjs', target: 'node20' });
  const module = { exports: {} as typeof SocketCounter };
  const run = runInThisContext(`(function (module, exports, require) {${code}\n})`) as (
    module: { exports: unknown },
    exports: unknown,
    require: NodeJS.Require,
  ) => void;
  run(module, module.exports, createRequire(import.meta.url));
  return module.exports;
}

const { respCommands } = loadCounter();

/** One command as ioredis writes it: an array of bulk strings, lengths in bytes. */
const resp = (...args: string[]): string => `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`;

describe('respCommands', () => {
  it('counts one command, as a string and as bytes', () => {
    const command = resp('SET', 'key', 'value');
    expect(respCommands(command)).toBe(1);
    expect(respCommands(Buffer.from(command))).toBe(1);
    expect(respCommands(new Uint8Array(Buffer.from(command)))).toBe(1);
  });

  it('counts every command of a pipeline written at once', () => {
    const pipeline = resp('MULTI') + resp('INCR', 'a') + resp('EXPIRE', 'a', '10') + resp('EXEC');
    expect(respCommands(pipeline)).toBe(4);
    expect(respCommands(Buffer.from(pipeline))).toBe(4);
  });

  it('skips payloads by their length, whatever they hold', () => {
    const tricky = resp('EVAL', '*3\r\n$1\r\nx\r\n', '0') + resp('PING');
    expect(respCommands(tricky)).toBe(2);
  });

  it('reads a string that is not ASCII by its bytes', () => {
    const command = resp('HSET', 'listing', 'Remarks', 'Großzügige Wohnung — 3 Zimmer') + resp('PING');
    expect(respCommands(command)).toBe(2);
  });

  it('counts an inline command once, and nothing in an empty write', () => {
    expect(respCommands('PING\r\n')).toBe(1);
    expect(respCommands('')).toBe(0);
  });
});
