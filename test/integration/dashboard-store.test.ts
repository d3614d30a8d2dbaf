/**
 * The dashboard over the real pieces: a run made against the simulator on real Redis whose jobs
 * failed, shown with their envelope Code and Message, retried from the run page, completed.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createStoreDashboardData } from '../../src/dashboard/read-model.js';
import { createMetrics } from '../../src/dashboard/metrics.js';
import { startDashboard, type RunningDashboard } from '../../src/dashboard/server.js';
import { eventually, seedFailedRun } from '../helpers/dashboard.js';
import { openQueueBench, type QueueBench } from '../helpers/queue.js';

const redisUrl = inject('redisUrl');
const BOT = 'bot-dash';
const TOKEN = 'tok-dashboard-store-42';
const AUTH = { authorization: `Bearer ${TOKEN}` };

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

async function page(url: string): Promise<string> {
  const res = await fetch(url, { headers: AUTH });
  expect(res.status, url).toBe(200);
  return await res.text();
}

describe('dashboard over the store and queues', () => {
  it('shows a failed run with Code and Message, retries it from the run page, and the jobs complete', async () => {
    bench = await openQueueBench(redisUrl, { chatbots: [BOT] }, 'dash');
    const { runId, keys } = await seedFailedRun(bench, BOT, 2);
    const data = createStoreDashboardData(bench.store, bench.queues);
    dashboard = await startDashboard({
      data,
      queues: [bench.queues.writes, bench.queues.syncRuns],
      auth: { token: TOKEN },
      readOnly: false,
      metrics: createMetrics({ defaultMetrics: false }),
      logger: bench.logger,
      port: 0,
      host: '127.0.0.1',
    });
    const { url } = dashboard;

    const list = await page(`${url}/`);
    expect(list).toContain(`href="/runs/${runId}"`);
    expect(list).toContain(BOT);

    const runUrl = `${url}/runs/${runId}`;
    const before = await page(runUrl);
    expect(before).toContain('Failed jobs (2)');
    expect(before).toContain('ENVELOPE_FAILURE 500');
    expect(before).toContain('Internal error, try again');
    expect(before).toContain('<dt>Create</dt><dd>2</dd>');
    expect(before).toContain('fixtures/dashboard.csv');
    expect(before).toContain('must be a number');
    for (const key of keys) expect(before).toContain(`<td class="mono">${key}</td>`);

    const csv = await (await fetch(`${runUrl}/rejected.csv`, { headers: AUTH })).text();
    expect(csv).toBe(`line,key,field,value,reason\r\n7,"<script>alert(""pwned"")</script>",ListPrice,'=1+1,must be a number\r\n`);

    const found = await page(`${url}/search?key=${keys[0] ?? ''}`);
    expect(found).toContain('1 job(s) in 1 run(s) touched');
    expect(found).toContain('<td>failed</td>');

    bench.sim.state.setFaults({});
    const csrf = /name="csrf" value="([^"]+)"/.exec(before)?.[1] ?? '';
    const retry = await fetch(`${runUrl}/retry`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...AUTH, 'content-type': 'application/x-www-form-urlencoded', origin: url },
      body: new URLSearchParams({ csrf }).toString(),
    });
    expect(retry.status).toBe(303);
    expect(retry.headers.get('location')).toBe(`/runs/${runId}?retried=2`);

    await eventually(async () => (await bench?.store.runs.runCounts(runId))?.created === 2);
    const after = await page(`${runUrl}?retried=2`);
    expect(after).toContain('Re-queued 2 failed job(s)');
    expect(after).toContain('No failed jobs.');
    expect(
      bench.sim.state
        .listings(BOT)
        .map((l) => l.MLSNumber)
        .sort(),
    ).toEqual([...keys].sort());
    expect(await page(`${url}/search?key=${keys[0] ?? ''}`)).toContain('<td>completed</td>');

    const metrics = await page(`${url}/metrics`);
    expect(metrics).toContain('listing_sync_jobs{queue="listing-writes",state="completed"} 2');
    expect(metrics).toContain('listing_sync_jobs{queue="listing-writes",state="failed"} 0');
    expect(await page(`${url}/healthz`)).toBe('ok\n');
    passed = true;
  });
});
