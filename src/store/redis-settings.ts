/**
 * The Redis server settings that decide whether listing-sync's data survives: memory use and
 * limit, eviction policy and AOF. Read with CONFIG GET; hosted Redis often refuses CONFIG, so
 * what INFO also tells (policy, AOF on/off, memory) is taken from INFO then, and the rest is
 * reported as unknown with the reason.
 */
import { mastersOf, type RedisClient } from './redis-client.js';

export interface RedisSettingValue {
  /** null: unknown (see `reason`). */
  value: string | null;
  source: 'CONFIG GET' | 'INFO' | 'unknown';
  reason?: string;
}

export interface RedisServerState {
  memory: { usedBytes?: number; maxBytes?: number; usedShare?: number };
  settings: { maxmemoryPolicy: RedisSettingValue; appendonly: RedisSettingValue; appendfsync: RedisSettingValue };
}

/** `field:value` lines of an INFO section. */
function infoFields(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) fields.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return fields;
}

function messageOf(thrown: unknown): string {
  return (thrown instanceof Error ? thrown.message : String(thrown)).split('\n')[0] ?? '';
}

async function readInfo(redis: RedisClient): Promise<{ fields: Map<string, string>; error?: string }> {
  try {
    const text = `${await redis.info('memory')}\n${await redis.info('persistence')}`;
    return { fields: infoFields(text) };
  } catch (thrown) {
    return { fields: new Map(), error: messageOf(thrown) };
  }
}

async function configGet(redis: RedisClient, name: string): Promise<string | { error: string }> {
  try {
    const reply = await redis.call('CONFIG', 'GET', name);
    if (Array.isArray(reply) && typeof reply[1] === 'string') return reply[1];
    return { error: 'CONFIG GET returned nothing for it' };
  } catch (thrown) {
    return { error: `CONFIG GET refused (${messageOf(thrown)})` };
  }
}

/** CONFIG GET's answer, else INFO's field (translated by `fromInfo`), else unknown with both reasons. */
async function setting(
  redis: RedisClient,
  name: string,
  info: { fields: Map<string, string>; error?: string },
  infoField?: string,
  fromInfo: (v: string) => string = (v) => v,
): Promise<RedisSettingValue> {
  const configured = await configGet(redis, name);
  if (typeof configured === 'string') return { value: configured, source: 'CONFIG GET' };
  const infoValue = infoField === undefined ? undefined : info.fields.get(infoField);
  if (infoValue !== undefined) return { value: fromInfo(infoValue), source: 'INFO' };
  const infoReason =
    infoField === undefined
      ? 'INFO does not show it'
      : info.error === undefined
        ? `INFO has no ${infoField}`
        : `INFO refused (${info.error})`;
  return { value: null, source: 'unknown', reason: `${configured.error}; ${infoReason}` };
}

function numberField(fields: Map<string, string>, name: string): number | undefined {
  const value = Number(fields.get(name));
  return fields.has(name) && Number.isFinite(value) ? value : undefined;
}

/**
 * Reads memory use and the durability settings (never throws for a refused command). On a
 * cluster every master is read and the one most at risk is reported: a master that may evict,
 * else one without AOF, else the fullest; one bad master is enough to lose data.
 */
export async function readRedisSettings(redis: RedisClient): Promise<RedisServerState> {
  const states = await Promise.all(mastersOf(redis).map(readServerSettings));
  const risk = (state: RedisServerState): number =>
    (state.settings.maxmemoryPolicy.value !== null && state.settings.maxmemoryPolicy.value !== 'noeviction' ? 4 : 0) +
    (state.settings.appendonly.value === 'no' ? 2 : 0) +
    (state.memory.usedShare ?? 0);
  return states.reduce((worst, state) => (risk(state) > risk(worst) ? state : worst));
}

async function readServerSettings(redis: RedisClient): Promise<RedisServerState> {
  const info = await readInfo(redis);
  const usedBytes = numberField(info.fields, 'used_memory');
  // Why INFO's maxmemory: unlike CONFIG it is there on hosted Redis too; 0 means no limit.
  const maxBytes = numberField(info.fields, 'maxmemory');
  const memory: RedisServerState['memory'] = { usedBytes, maxBytes };
  if (usedBytes !== undefined && maxBytes !== undefined && maxBytes > 0) memory.usedShare = usedBytes / maxBytes;
  return {
    memory,
    settings: {
      maxmemoryPolicy: await setting(redis, 'maxmemory-policy', info, 'maxmemory_policy'),
      appendonly: await setting(redis, 'appendonly', info, 'aof_enabled', (v) => (v === '1' ? 'yes' : 'no')),
      appendfsync: await setting(redis, 'appendfsync', info),
    },
  };
}
