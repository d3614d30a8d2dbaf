/** The `doctor` report as text: a few lines on the server's settings, then a table of key kinds. */
import type { RedisReport } from '../../store/redis-report.js';
import type { RedisSettingValue } from '../../store/redis-settings.js';
import { count, plural } from '../../shared/counts.js';

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** 1536 → '1.5 KiB'. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

function settingText(setting: RedisSettingValue): string {
  if (setting.value === null) return `unknown: ${setting.reason ?? 'not reported'}`;
  return setting.source === 'CONFIG GET' ? setting.value : `${setting.value} (from ${setting.source})`;
}

function memoryText(memory: RedisReport['memory']): string {
  if (memory.usedBytes === undefined) return 'unknown (INFO memory not available)';
  const used = `${formatBytes(memory.usedBytes)} used`;
  if (memory.maxBytes === undefined || memory.maxBytes === 0 || memory.usedShare === undefined) return `${used}, no maxmemory limit`;
  return `${used} of maxmemory ${formatBytes(memory.maxBytes)} (${Math.round(memory.usedShare * 100)}%)`;
}

function table(rows: ReadonlyArray<readonly [string, string, string]>): string[] {
  const widths = [0, 1, 2].map((c) => Math.max(...rows.map((row) => row[c]?.length ?? 0)));
  return rows.map(([kind, keys, bytes]) =>
    `${kind.padEnd(widths[0] ?? 0)}  ${keys.padStart(widths[1] ?? 0)}  ${bytes.padStart(widths[2] ?? 0)}`.trimEnd(),
  );
}

/** The whole report for a terminal; `redis` is the Redis URL with its password masked. */
export function formatRedisReport(report: RedisReport, redis: string): string {
  const { keys, retention, settings } = report;
  const lines = [
    `Redis ${redis}, prefix ${report.prefix}`,
    `  memory:           ${memoryText(report.memory)}`,
    `  maxmemory-policy: ${settingText(settings.maxmemoryPolicy)}`,
    `  appendonly:       ${settingText(settings.appendonly)}`,
    `  appendfsync:      ${settingText(settings.appendfsync)}`,
    `  retention:        ${plural(retention.keepDays, 'day')} or the newest ${plural(retention.keepRuns, 'run')} per chatbot; ` +
      `${plural(retention.runsPastRetention, 'run')} more than a day past it`,
    '',
  ];
  const rows: Array<readonly [string, string, string]> = [['kind', 'keys', 'bytes']];
  for (const kind of keys.kinds)
    rows.push([kind.kind, count(kind.keys), `${kind.measuredKeys < kind.keys ? '~' : ''}${formatBytes(kind.bytes)}`]);
  rows.push(['total', count(keys.total), `${keys.estimated ? '~' : ''}${formatBytes(keys.bytes)}`]);
  lines.push(...table(rows));
  if (keys.estimated) {
    lines.push(
      `~ estimated: ${count(keys.measuredKeys)} of ${plural(keys.total, 'key')} ` +
        `measured (MEMORY USAGE), the rest counted and sized by the average of their kind`,
    );
  }
  lines.push('');
  if (report.warnings.length === 0) lines.push('no warnings');
  else lines.push('warnings:', ...report.warnings.map((w) => `  - ${w.message}`));
  return `${lines.join('\n')}\n`;
}
