/**
 * The ops files in deploy/ against the tool itself: the Prometheus rules pass `promtool check
 * rules`, and every metric the rules and the Grafana dashboard name exists on the dashboard's
 * /metrics (served over the real store, a run and a chatbot's health in it).
 *
 * promtool comes from Debian's `prometheus` package (`.ci/run` installs it), or PROMTOOL=path.
 * Under CI (env CI set) a missing promtool fails the test; elsewhere the check is skipped with a
 * message, so a developer without it can still run the suite.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createStoreDashboardData } from '../../src/dashboard/read-model.js';
import { createMetrics } from '../../src/dashboard/metrics.js';
import { startDashboard, type RunningDashboard } from '../../src/dashboard/server.js';
import { seedFailedRun } from '../helpers/dashboard.js';
import { openQueueBench, type QueueBench } from '../helpers/queue.js';

const redisUrl = inject('redisUrl');
const root = resolve(import.meta.dirname, '../..');
const RULES = join(root, 'deploy/prometheus/alerts.yml');
const GRAFANA = join(root, 'deploy/grafana/listing-sync.json');
const TOKEN = 'tok-deploy-monitoring-1';

/** PROMTOOL, else promtool on PATH. */
function findPromtool(): string | undefined {
  const explicit = process.env.PROMTOOL;
  if (explicit !== undefined && explicit !== '') return explicit;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'promtool');
    if (dir !== '' && existsSync(candidate)) return candidate;
  }
  return undefined;
}

const promtool = findPromtool();
const inCi = (process.env.CI ?? '') !== '';
const MISSING = 'promtool is missing: install it (apt-get install -y --no-install-recommends prometheus) or set PROMTOOL=/path/to/promtool';
if (promtool === undefined && !inCi) console.warn(`promtool check skipped: ${MISSING}`);

/** Metric names in PromQL text: identifiers starting with listing_sync_ (the tool's own families). */
function metricNames(expr: string): string[] {
  return [...expr.matchAll(/\blisting_sync_[a-z0-9_]+/g)].map((match) => match[0]);
}

/** A histogram's series names back to their family (…_bucket/_sum/_count). */
function familyOf(name: string, families: ReadonlySet<string>): string {
  const base = name.replace(/_(bucket|sum|count)$/, '');
  return families.has(name) ? name : base;
}

interface RuleFile {
  groups: Array<{ rules: Array<{ alert: string; expr: string }> }>;
}

interface GrafanaDashboard {
  title: string;
  panels: Array<{ title: string; targets?: Array<{ expr?: string }> }>;
}

let bench: QueueBench | undefined;
let dashboard: RunningDashboard | undefined;
let passed = false;

afterEach(async () => {
  await dashboard?.close();
  await bench?.close(passed);
  dashboard = undefined;
  bench = undefined;
  passed = false;
});

describe('deploy/prometheus/alerts.yml', () => {
  it.skipIf(promtool === undefined && !inCi)('passes promtool check rules', async () => {
    if (promtool === undefined) throw new Error(`CI is set but ${MISSING}`);
    const { stdout } = await promisify(execFile)(promtool, ['check', 'rules', RULES]);
    expect(stdout).toContain('SUCCESS: 6 rules found');
  });

  it('has the rules the issue asks for', () => {
    const file = parse(readFileSync(RULES, 'utf8')) as RuleFile;
    expect(file.groups.flatMap((group) => group.rules.map((rule) => rule.alert))).toEqual([
      'ListingSyncRunFailedOrRefused',
      'ListingSyncNoSuccessfulRun',
      'ListingSyncJobsFailingByCode',
      'ListingSyncQueueBacklogGrowing',
      'ListingSyncServiceLatencyHigh',
      'ListingSyncPhotoDownloadsFailing',
    ]);
  });
});

describe('the rules and the Grafana dashboard name only metrics /metrics has', () => {
  it('finds every metric they name on /metrics', async () => {
    bench = await openQueueBench(redisUrl, { chatbots: ['bot-metrics'] }, 'deploy-metrics');
    await seedFailedRun(bench, 'bot-metrics', 1);
    const data = createStoreDashboardData(bench.store, bench.queues, bench.prefix);
    dashboard = await startDashboard({
      data,
      queues: [],
      auth: { token: TOKEN },
      readOnly: true,
      metrics: createMetrics(),
      logger: bench.logger,
      port: 0,
      host: '127.0.0.1',
    });
    const exposition = await (await fetch(`${dashboard.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    const families = new Set([...exposition.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1] ?? ''));
    expect(exposition).toMatch(/^listing_sync_chatbot_status\{chatbot="bot-metrics",status="failed"\} 1$/m);

    const grafana = JSON.parse(readFileSync(GRAFANA, 'utf8')) as GrafanaDashboard;
    expect(grafana.title).toBe('listing-sync');
    const grafanaExprs = grafana.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr ?? ''));
    expect(grafanaExprs.length).toBeGreaterThan(5);
    const rules = (parse(readFileSync(RULES, 'utf8')) as RuleFile).groups.flatMap((group) => group.rules.map((rule) => rule.expr));
    const named = new Set([...grafanaExprs, ...rules].flatMap(metricNames));
    expect(named.size).toBeGreaterThan(5);
    const missing = [...named].filter((name) => !families.has(familyOf(name, families)));
    expect(missing).toEqual([]);
    passed = true;
  }, 60_000);
});
