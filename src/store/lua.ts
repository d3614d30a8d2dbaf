/**
 * Runs a Lua script by its SHA (EVALSHA) and loads it on NOSCRIPT, so each call sends only the
 * hash and the arguments: one round trip per use, the script body only once per server.
 */
import { createHash } from 'node:crypto';
import type { RedisClient } from './redis-client.js';

export interface LuaScript {
  readonly source: string;
  readonly sha: string;
}

export function luaScript(source: string): LuaScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

/** Evaluates `script` with `keys` and `args`; returns Redis's raw reply. */
export async function runLua(
  redis: RedisClient,
  script: LuaScript,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  try {
    return await redis.evalsha(script.sha, keys.length, ...keys, ...args);
  } catch (thrown) {
    if (!(thrown instanceof Error) || !thrown.message.startsWith('NOSCRIPT')) throw thrown;
    return await redis.eval(script.source, keys.length, ...keys, ...args);
  }
}
