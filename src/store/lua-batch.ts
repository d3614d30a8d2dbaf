/**
 * One Lua script called many times in one pipeline (EVALSHA each), for batch work such as
 * retention. The script is loaded on NOSCRIPT and only the calls that missed it are sent again,
 * so a script must be idempotent per call to be used here.
 */
import type { RedisClient } from './redis-client.js';
import type { LuaScript } from './lua.js';

export interface LuaCall {
  keys: readonly string[];
  args: readonly (string | number)[];
}

function isNoScript(error: Error | null): boolean {
  return error !== null && error.message.startsWith('NOSCRIPT');
}

/** Runs `script` once per call, pipelined; returns the replies in call order (throws the first other error). */
export async function evalshaBatch(redis: RedisClient, script: LuaScript, calls: readonly LuaCall[]): Promise<unknown[]> {
  const replies: unknown[] = new Array<unknown>(calls.length);
  let pending = calls.map((_, i) => i);
  for (let round = 0; pending.length > 0; round += 1) {
    if (round > 0) await redis.script('LOAD', script.source);
    const pipe = redis.pipeline();
    for (const i of pending) {
      const call = calls[i] as LuaCall;
      pipe.evalsha(script.sha, call.keys.length, ...call.keys, ...call.args);
    }
    const results = (await pipe.exec()) ?? [];
    const missed: number[] = [];
    results.forEach(([error, reply], n) => {
      const index = pending[n] as number;
      if (isNoScript(error) && round === 0) missed.push(index);
      else if (error) throw error;
      else replies[index] = reply;
    });
    pending = missed;
  }
  return replies;
}
