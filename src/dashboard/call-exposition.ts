/**
 * The service-call families of /metrics, written as Prometheus text from the totals every calling
 * process flushes to Redis (src/store/call-metrics.ts; prom-client cannot load a histogram from
 * stored bucket counts, only from observations): `listing_sync_service_calls_total{endpoint,outcome}`,
 * `listing_sync_service_call_seconds{endpoint}` and `listing_sync_service_failures_total{code}`.
 */
import type { CallMetricsView } from './types.js';

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function labels(pairs: Readonly<Record<string, string>>): string {
  return `{${Object.entries(pairs)
    .map(([name, value]) => `${name}="${escapeLabel(value)}"`)
    .join(',')}}`;
}

function header(name: string, type: 'counter' | 'histogram', help: string): string[] {
  return [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`];
}

/** The three call families as exposition text (HELP/TYPE lines even when nothing was called or Redis did not answer). */
export function renderCallMetrics(view: CallMetricsView | undefined): string {
  const endpoints = [...(view?.endpoints ?? [])].sort((a, b) => a.endpoint.localeCompare(b.endpoint));
  const calls = endpoints
    .flatMap((stats) =>
      Object.entries(stats.outcomes).map(([outcome, n]) => ({
        key: JSON.stringify([stats.endpoint, outcome]),
        endpoint: stats.endpoint,
        outcome,
        n,
      })),
    )
    .sort((a, b) => a.key.localeCompare(b.key));
  const lines = header('listing_sync_service_calls_total', 'counter', 'Calls to the service by endpoint and outcome, from every process');
  for (const { endpoint, outcome, n } of calls) lines.push(`listing_sync_service_calls_total${labels({ endpoint, outcome })} ${n}`);

  const hist = 'listing_sync_service_call_seconds';
  lines.push(...header(hist, 'histogram', 'Latency of calls to the service by endpoint, from every process'));
  for (const stats of endpoints) {
    // Stored counts are per bucket; the exposition's are cumulative. The last count is above every bound.
    let count = 0;
    (view?.buckets ?? []).forEach((le, i) => {
      count += stats.bucketCounts[i] ?? 0;
      lines.push(`${hist}_bucket${labels({ endpoint: stats.endpoint, le: String(le) })} ${count}`);
    });
    const all = stats.bucketCounts.reduce((sum, n) => sum + n, 0);
    lines.push(`${hist}_bucket${labels({ endpoint: stats.endpoint, le: '+Inf' })} ${all}`);
    lines.push(`${hist}_sum${labels({ endpoint: stats.endpoint })} ${stats.sumSeconds}`);
    lines.push(`${hist}_count${labels({ endpoint: stats.endpoint })} ${all}`);
  }

  lines.push(
    ...header(
      'listing_sync_service_failures_total',
      'counter',
      'Failed service calls by envelope Code (or the transport failure outcome when there was no envelope), from every process',
    ),
  );
  for (const [code, n] of Object.entries(view?.failures ?? {}).sort(([a], [b]) => a.localeCompare(b)))
    lines.push(`listing_sync_service_failures_total${labels({ code })} ${n}`);
  return `${lines.join('\n')}\n`;
}
