/** What every bench shares: options, the Redis it measures against (fresh prefixes, server-side counts), JSON-printing children. */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';

// Why a bench reads the env itself: it is a script beside the CLI, not part of src/.
export const REDIS_URL = process.env.REDIS_URL?.trim() || 'redis://127.0.0.1:6379';

type OptionValue = number | number[] | boolean | string;

/** `--kebab-name VALUE` into `defaults.kebabName`, typed by its default (number, comma list, string, `--[no-]flag`). */
export function parseOptions<T extends Record<string, OptionValue>>(
  argv: readonly string[],
  defaults: T,
  positional?: (arg: string) => void,
): T {
  const out: Record<string, OptionValue> = { ...defaults };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    const key = arg.replace(/^--(no-)?/, '').replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
    const fallback = defaults[key];
    if (!arg.startsWith('--') && positional !== undefined) positional(arg);
    else if (fallback === undefined) throw new Error(`unknown option ${arg} (known: ${Object.keys(defaults).join(', ')})`);
    else if (typeof fallback === 'boolean') out[key] = !arg.startsWith('--no-');
    else {
      const text = argv[++i];
      if (text === undefined) throw new Error(`${arg} needs a value`);
      if (typeof fallback === 'string') out[key] = text;
      else if (Array.isArray(fallback)) out[key] = text.split(',').filter(Boolean).map(Number);
      else if (!Number.isSafeInteger(Number(text)) || Number(text) < 0) throw new Error(`${arg} needs a whole number ≥ 0, not ${text}`);
      else out[key] = Number(text);
    }
  }
  return out as T;
}

export const newPrefix = (what: string): string => `bench-${what}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `done` every `everyMs` until it holds; throws `what` after `timeoutMs`. */
export async function waitUntil(done: () => boolean | Promise<boolean>, what: string, timeoutMs = 600_000, everyMs = 100): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(what);
    await sleep(everyMs);
  }
}

/** Runs `node [nodeArgs] script args` to its end and parses the last line it printed (one JSON object). */
export async function runJson<T>(script: string, args: readonly string[], env = process.env, nodeArgs: readonly string[] = []): Promise<T> {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const line = out.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !line.startsWith('{')) throw new Error(`${script} exited ${String(code)}: ${out.slice(-2000)}`);
  return JSON.parse(line) as T;
}

/** Deletes every key under `prefix` (SCAN, never KEYS). */
export async function cleanPrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== '0');
}

/** Redis's own work over a span from INFO (Lua's commands included), server-wide: `otherClients` were connected too. */
export interface RedisServerWork {
  commands: number;
  cpuSeconds: number;
  otherClients: number;
}

async function serverTotals(redis: Redis): Promise<{ commands: number; cpuSeconds: number }> {
  const text = `${await redis.info('commandstats')}\n${await redis.info('cpu')}`;
  const commands = [...text.matchAll(/^cmdstat_[^:]+:calls=(\d+)/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
  const field = (name: string): number => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(text)?.[1] ?? 0);
  return { commands, cpuSeconds: field('used_cpu_sys') + field('used_cpu_user') };
}

/** Runs `span` and returns what the Redis at `redisUrl` did meanwhile. */
export async function measuringRedis<T>(redisUrl: string, span: () => Promise<T>): Promise<{ result: T; work: RedisServerWork }> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const clientList = String(await redis.call('CLIENT', 'LIST'));
    const clients = clientList.trim().split('\n').length;
    const before = await serverTotals(redis);
    const result = await span();
    const after = await serverTotals(redis);
    // Why minus 2: the INFO calls of this measurement that fall inside the span.
    const commands = after.commands - before.commands - 2;
    return { result, work: { commands, cpuSeconds: after.cpuSeconds - before.cpuSeconds, otherClients: clients - 1 } };
  } finally {
    redis.disconnect();
  }
}
