/**
 * Which source the runs page shows for a run, over the real store: the source its summary names
 * (a fan-out run of `fleet run SOURCE`) first, else its chatbot's source in the applied fleet,
 * else none; and the fleet page and /metrics read the same applied fleet.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createStoreDashboardData } from '../../src/dashboard/read-model.js';
import { FleetRecordStore } from '../../src/store/fleet-record-store.js';
import { openQueueBench, type QueueBench } from '../helpers/queue.js';

const redisUrl = inject('redisUrl');
let bench: QueueBench | undefined;
let passed = false;

afterEach(async () => {
  await bench?.close(passed);
  bench = undefined;
  passed = false;
});

describe('a run’s source on the dashboard', () => {
  it('is the summary’s source, else the chatbot’s in the applied fleet, else none', async () => {
    bench = await openQueueBench(redisUrl, {}, 'run-source');
    const { store } = bench;
    await new FleetRecordStore(bench.redis, bench.prefix).write({
      sources: { mred: { feed: 'https://mls.example/odata/Property', profile: 'reso' }, file: { feed: '/feeds/a.csv' } },
      chatbots: { 'acme-bot': { source: 'mred', where: { ListOfficeMlsId: 'ACME1' } }, 'gamma-bot': { source: 'file' } },
      alerts: {},
    });
    const run = async (id: string, chatbot: string, startedAt: number, source?: string): Promise<void> => {
      await store.runs.createRun({ id, chatbot, trigger: 'cli', forced: false, status: 'done', startedAt, finishedAt: startedAt + 1000 });
      // The parts of a sync's summary these reads look at, as a fan-out run stores them (the lenient reading keeps valid parts).
      const summary = { guard: { ok: true, reasons: [], forced: false }, ...(source === undefined ? {} : { source }) };
      await bench?.redis.hset(store.keys.run(chatbot, id), 'summary', JSON.stringify(summary));
    };
    const now = Date.now();
    await run('run-fanout', 'acme-bot', now - 3000, 'mred');
    await run('run-moved', 'gamma-bot', now - 2000, 'elsewhere');
    await run('run-fleet', 'gamma-bot', now - 1000);
    await run('run-solo', 'solo-bot', now);

    const data = createStoreDashboardData(store, bench.queues, bench.prefix);
    const sources = Object.fromEntries((await data.listRuns({ limit: 10 })).map((item) => [item.runId, item.source ?? null]));
    expect(sources).toEqual({ 'run-fanout': 'mred', 'run-moved': 'elsewhere', 'run-fleet': 'file', 'run-solo': null });

    expect(await data.fleetMembers?.()).toEqual([
      { chatbot: 'acme-bot', source: 'mred' },
      { chatbot: 'gamma-bot', source: 'file' },
    ]);
    const fleet = await data.fleet?.();
    expect(fleet?.map(({ chatbot, source, filter, lastRun }) => ({ chatbot, source, filter, last: lastRun?.runId }))).toEqual([
      { chatbot: 'gamma-bot', source: 'file', filter: undefined, last: 'run-fleet' },
      { chatbot: 'acme-bot', source: 'mred', filter: 'ListOfficeMlsId is ACME1', last: 'run-fanout' },
    ]);
    passed = true;
  });
});
