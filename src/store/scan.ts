/**
 * Walking a large keyspace without blocking Redis: SCAN and HSCAN in bounded batches (never KEYS
 * or HGETALL on something that may hold a million entries), and the glob patterns they match.
 */
import { mastersOf, type RedisClient } from './redis-client.js';

/** Keys per SCAN/HSCAN call and commands per pipeline: small enough that no call blocks Redis. */
export const SCAN_BATCH = 1000;

/** Escapes Redis glob characters, so a literal (a prefix, a chatbot name) matches only itself. */
export function escapeGlob(literal: string): string {
  return literal.replace(/[*?[\]\\]/g, (char) => `\\${char}`);
}

/** The SCAN pattern of every key that starts with `literal`. */
export function startsWithPattern(literal: string): string {
  return `${escapeGlob(literal)}*`;
}

/**
 * Batches of key names matching `pattern`, one SCAN call each, on every master of a cluster in
 * turn (SCAN walks one server). SCAN may return a key twice (when the table is resized during
 * the walk): callers must be idempotent per key.
 */
export async function* scanKeys(redis: RedisClient, pattern: string, count: number = SCAN_BATCH): AsyncGenerator<string[]> {
  for (const server of mastersOf(redis)) {
    let cursor = '0';
    do {
      const [next, keys] = await server.scan(cursor, 'MATCH', pattern, 'COUNT', count);
      cursor = next;
      if (keys.length > 0) yield keys;
    } while (cursor !== '0');
  }
}

/** Batches of [field, value] pairs of a hash, one HSCAN call each (fields may repeat, as with SCAN). */
export async function* scanHash(redis: RedisClient, key: string, count: number = SCAN_BATCH): AsyncGenerator<Array<[string, string]>> {
  let cursor = '0';
  do {
    const [next, flat] = await redis.hscan(key, cursor, 'COUNT', count);
    cursor = next;
    const pairs: Array<[string, string]> = [];
    for (let i = 0; i + 1 < flat.length; i += 2) pairs.push([flat[i] as string, flat[i + 1] as string]);
    if (pairs.length > 0) yield pairs;
  } while (cursor !== '0');
}
