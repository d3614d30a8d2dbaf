/**
 * What `listing-sync doctor` reports about the Redis an installation uses: memory by kind of key
 * under its prefix, the settings that decide whether data survives (eviction policy, AOF), and
 * warnings. Reads only; every walk is batched (SCAN COUNT 1000, pipelines of at most 1000).
 */
import { layoutOf, mastersOf, type RedisClient } from './redis-client.js';
import { keyKind } from './key-kinds.js';
import { storeKeys } from './keys.js';
import { readRedisSettings, type RedisSettingValue } from './redis-settings.js';
import { countExpiredRuns } from './retention-runs.js';
import { DAY_MS, retentionCutoff, type RetentionSettings } from './retention.js';
import { scanKeys, startsWithPattern } from './scan.js';

/** Keys whose memory is measured one by one; beyond this, kinds are estimated from samples. */
export const EXACT_KEY_LIMIT = 20_000;
/** Past EXACT_KEY_LIMIT, a kind still gets this many of its keys measured (so rare kinds are not guessed). */
const MIN_SAMPLES_PER_KIND = 100;
/**
 * Why a day of grace before runs past retention count as a warning: the reconciler removes them
 * about once an hour, so a few are always just past the line.
 */
const RETENTION_GRACE_MS = DAY_MS;
/** Share of maxmemory above which the report warns: under noeviction, writes fail at 100%. */
const MEMORY_WARN_SHARE = 0.8;

export interface KindUsage {
  kind: string;
  keys: number;
  /** Bytes (MEMORY USAGE), measured, or estimated from `measuredKeys` when fewer than `keys`. */
  bytes: number;
  measuredKeys: number;
}

export interface ReportWarning {
  code: 'EVICTION_POLICY' | 'AOF_OFF' | 'AOF_FSYNC' | 'MEMORY_HIGH' | 'RETENTION_BEHIND' | 'JOB_TARGET';
  message: string;
}

export interface RedisReport {
  prefix: string;
  memory: { usedBytes?: number; maxBytes?: number; usedShare?: number };
  settings: { maxmemoryPolicy: RedisSettingValue; appendonly: RedisSettingValue; appendfsync: RedisSettingValue };
  keys: { total: number; bytes: number; measuredKeys: number; estimated: boolean; kinds: KindUsage[] };
  retention: RetentionSettings & { runsPastRetention: number };
  warnings: ReportWarning[];
}

interface Tally {
  keys: number;
  /** Keys of the current batch waiting for their MEMORY USAGE. */
  queued: number;
  measuredKeys: number;
  measuredBytes: number;
}

/** Counts every key under the prefix by kind and measures the first EXACT_KEY_LIMIT (plus samples of each kind). */
async function usageByKind(redis: RedisClient, prefix: string): Promise<RedisReport['keys']> {
  const tallies = new Map<string, Tally>();
  let measured = 0;
  // Per server: SCAN walks one, and MEMORY USAGE must be asked of the server holding the key.
  for (const server of mastersOf(redis)) {
    for await (const batch of scanKeys(server, startsWithPattern(`${prefix}:`))) {
      const toMeasure: Array<{ key: string; tally: Tally }> = [];
      for (const key of batch) {
        const kind = keyKind(prefix, key);
        const tally = tallies.get(kind) ?? { keys: 0, queued: 0, measuredKeys: 0, measuredBytes: 0 };
        tallies.set(kind, tally);
        tally.keys += 1;
        // Why the first keys are a fair sample: SCAN walks the hash table, in no order of names.
        if (measured + toMeasure.length < EXACT_KEY_LIMIT || tally.measuredKeys + tally.queued < MIN_SAMPLES_PER_KIND) {
          toMeasure.push({ key, tally });
          tally.queued += 1;
        }
      }
      if (toMeasure.length === 0) continue;
      const pipe = server.pipeline();
      for (const { key } of toMeasure) pipe.call('MEMORY', 'USAGE', key, 'SAMPLES', '0');
      const replies = (await pipe.exec()) ?? [];
      toMeasure.forEach(({ tally }, i) => {
        tally.queued = 0;
        const [error, bytes] = replies[i] ?? [null, null];
        if (error || bytes === null) return; // gone since SCAN listed it
        tally.measuredKeys += 1;
        tally.measuredBytes += Number(bytes);
        measured += 1;
      });
    }
  }
  const kinds = [...tallies.entries()].map(([kind, t]) => ({
    kind,
    keys: t.keys,
    measuredKeys: t.measuredKeys,
    bytes: t.measuredKeys >= t.keys || t.measuredKeys === 0 ? t.measuredBytes : Math.round((t.measuredBytes / t.measuredKeys) * t.keys),
  }));
  kinds.sort((a, b) => b.bytes - a.bytes || a.kind.localeCompare(b.kind));
  const total = kinds.reduce((sum, k) => sum + k.keys, 0);
  return { total, bytes: kinds.reduce((sum, k) => sum + k.bytes, 0), measuredKeys: measured, estimated: measured < total, kinds };
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

function warningsOf(report: Omit<RedisReport, 'warnings'>): ReportWarning[] {
  const warnings: ReportWarning[] = [];
  const { maxmemoryPolicy, appendonly, appendfsync } = report.settings;
  if (maxmemoryPolicy.value !== null && maxmemoryPolicy.value !== 'noeviction') {
    warnings.push({
      code: 'EVICTION_POLICY',
      message:
        `maxmemory-policy is ${maxmemoryPolicy.value}: set it to noeviction, or Redis may evict queued ` +
        `jobs, runs and ledger entries under memory pressure`,
    });
  }
  if (appendonly.value === 'no') {
    warnings.push({
      code: 'AOF_OFF',
      message:
        'appendonly is no: set appendonly yes (with appendfsync everysec), or a Redis restart loses queued jobs, ' +
        'runs and ledger entries written since the last snapshot',
    });
  }
  if (appendfsync.value !== null && appendfsync.value !== 'everysec' && appendfsync.value !== 'always') {
    warnings.push({
      code: 'AOF_FSYNC',
      message: `appendfsync is ${appendfsync.value}: set everysec (or always), or a crash may lose more than the last second of writes`,
    });
  }
  const { usedShare, usedBytes, maxBytes } = report.memory;
  if (usedShare !== undefined && usedShare > MEMORY_WARN_SHARE) {
    warnings.push({
      code: 'MEMORY_HIGH',
      message:
        `used memory ${usedBytes ?? '?'} bytes is ${percent(usedShare)} of maxmemory ${maxBytes ?? '?'}: ` +
        `under noeviction writes fail when it is full; raise maxmemory or keep less (LISTING_SYNC_KEEP_DAYS, ` +
        `LISTING_SYNC_KEEP_RUNS)`,
    });
  }
  const { runsPastRetention, keepDays, keepRuns } = report.retention;
  if (runsPastRetention > 0) {
    warnings.push({
      code: 'RETENTION_BEHIND',
      message:
        `${runsPastRetention} finished run(s) are more than a day past retention (kept: ${keepDays} days ` +
        `or the newest ${keepRuns} per chatbot): the reconciler that removes them is not running; start a worker ` +
        `against this Redis and prefix`,
    });
  }
  return warnings;
}

/** Builds the report for the installation under `prefix`, judging retention by `retention` at `now`. */
export async function buildRedisReport(
  redis: RedisClient,
  prefix: string,
  retention: RetentionSettings,
  now: number,
): Promise<RedisReport> {
  const { memory, settings } = await readRedisSettings(redis);
  const keys = await usageByKind(redis, prefix);
  const cutoff = retentionCutoff(retention, now) - RETENTION_GRACE_MS;
  const runsPastRetention = await countExpiredRuns(redis, storeKeys(prefix, layoutOf(redis)), retention.keepRuns, cutoff);
  const report = { prefix, memory, settings, keys, retention: { ...retention, runsPastRetention } };
  return { ...report, warnings: warningsOf(report) };
}
