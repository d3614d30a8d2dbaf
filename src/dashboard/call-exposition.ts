/**
 * The service-call families of /metrics, written as Prometheus text from CallMetricsView values
 * (prom-client cannot load a histogram from stored bucket counts, only from observations):
 * `listing_sync_service_calls_total{endpoint,outcome}`, `listing_sync_service_call_seconds{endpoint}`
 * and `listing_sync_service_failures_total{code}`. Several views (Redis totals of every process,
 * calls observed in this process) are summed.
 */
import type { CallMetricsView, EndpointCallsView } from './types.js';

/** One settled call to the service: the API client's `onCall` event. */
export interface ServiceCallEvent {
  endpoint: string;
  ms: number;
  outcome: string;
  envelopeCode?: number;
}

const LOCAL_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface MutableEndpoint {
  outcomes: Record<string, number>;
  bucketCounts: number[];
  sumSeconds: number;
}

/** Calls counted in this process's memory (embedding; the CLI records through Redis instead). */
export class LocalCalls {
  private readonly endpoints = new Map<string, MutableEndpoint>();
  private readonly failures: Record<string, number> = {};

  observe(event: ServiceCallEvent): void {
    let stats = this.endpoints.get(event.endpoint);
    if (!stats) this.endpoints.set(event.endpoint, (stats = { outcomes: {}, bucketCounts: LOCAL_BUCKETS.map(() => 0).concat(0), sumSeconds: 0 }));
    const seconds = event.ms / 1000;
    const index = LOCAL_BUCKETS.findIndex((le) => seconds <= le);
    const slot = index === -1 ? LOCAL_BUCKETS.length : index;
    stats.bucketCounts[slot] = (stats.bucketCounts[slot] ?? 0) + 1;
    stats.outcomes[event.outcome] = (stats.outcomes[event.outcome] ?? 0) + 1;
    stats.sumSeconds += seconds;
    // Same rule as the Redis recorder: every outcome but 'ok' is a failed call.
    if (event.outcome !== 'ok') {
      const code = event.envelopeCode === undefined ? event.outcome : String(event.envelopeCode);
      this.failures[code] = (this.failures[code] ?? 0) + 1;
    }
  }

  view(): CallMetricsView | undefined {
    if (this.endpoints.size === 0) return undefined;
    return { buckets: LOCAL_BUCKETS, endpoints: [...this.endpoints].map(([endpoint, stats]) => ({ endpoint, ...stats })), failures: this.failures };
  }
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function labels(pairs: Readonly<Record<string, string>>): string {
  return `{${Object.entries(pairs).map(([name, value]) => `${name}="${escapeLabel(value)}"`).join(',')}}`;
}

function header(name: string, type: 'counter' | 'histogram', help: string): string[] {
  return [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`];
}

function total(counts: readonly number[]): number {
  return counts.reduce((sum, n) => sum + n, 0);
}

/**
 * Calls at or under `le` in one view: the buckets whose bound is ≤ le. Exact when views share
 * bounds; with different bounds it never over-counts, so the merged histogram stays valid.
 */
function cumulativeAt(buckets: readonly number[], stats: EndpointCallsView, le: number): number {
  let count = 0;
  buckets.forEach((bound, i) => {
    if (bound <= le) count += stats.bucketCounts[i] ?? 0;
  });
  return count;
}

function sumBy(into: Map<string, number>, key: string, by: number): void {
  into.set(key, (into.get(key) ?? 0) + by);
}

/** The three call families as exposition text (HELP/TYPE lines even when nothing was called). */
export function renderCallMetrics(views: readonly CallMetricsView[]): string {
  const calls = new Map<string, number>();
  const failures = new Map<string, number>();
  const perEndpoint = new Map<string, { buckets: readonly number[]; stats: EndpointCallsView }[]>();
  for (const view of views) {
    for (const stats of view.endpoints) {
      for (const [outcome, n] of Object.entries(stats.outcomes)) sumBy(calls, JSON.stringify([stats.endpoint, outcome]), n);
      perEndpoint.set(stats.endpoint, [...(perEndpoint.get(stats.endpoint) ?? []), { buckets: view.buckets, stats }]);
    }
    for (const [code, n] of Object.entries(view.failures)) sumBy(failures, code, n);
  }

  const lines = header('listing_sync_service_calls_total', 'counter', 'Calls to the service by endpoint and outcome, from every process');
  for (const [pair, n] of [...calls].sort(([a], [b]) => a.localeCompare(b))) {
    const [endpoint = '', outcome = ''] = JSON.parse(pair) as string[];
    lines.push(`listing_sync_service_calls_total${labels({ endpoint, outcome })} ${n}`);
  }

  const hist = 'listing_sync_service_call_seconds';
  lines.push(...header(hist, 'histogram', 'Latency of calls to the service by endpoint, from every process'));
  for (const [endpoint, parts] of [...perEndpoint].sort(([a], [b]) => a.localeCompare(b))) {
    const bounds = [...new Set(parts.flatMap((part) => part.buckets))].sort((a, b) => a - b);
    for (const le of bounds) {
      const count = parts.reduce((sum, part) => sum + cumulativeAt(part.buckets, part.stats, le), 0);
      lines.push(`${hist}_bucket${labels({ endpoint, le: String(le) })} ${count}`);
    }
    const count = parts.reduce((sum, part) => sum + total(part.stats.bucketCounts), 0);
    lines.push(`${hist}_bucket${labels({ endpoint, le: '+Inf' })} ${count}`);
    lines.push(`${hist}_sum${labels({ endpoint })} ${parts.reduce((sum, part) => sum + part.stats.sumSeconds, 0)}`);
    lines.push(`${hist}_count${labels({ endpoint })} ${count}`);
  }

  lines.push(...header('listing_sync_service_failures_total', 'counter', 'Failed service calls by envelope Code (or the transport failure outcome when there was no envelope), from every process'));
  for (const [code, n] of [...failures].sort(([a], [b]) => a.localeCompare(b))) lines.push(`listing_sync_service_failures_total${labels({ code })} ${n}`);
  return `${lines.join('\n')}\n`;
}
