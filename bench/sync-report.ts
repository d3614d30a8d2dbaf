/** Turns bench:sync rounds into the printed table and the BENCHMARKS.md section body. */
import type { BaselineResult } from './sync-baseline.js';
import type { QueueResult } from './sync-queue.js';
import type { Scenario } from './sync-scenario.js';

export interface SyncRound {
  undici: BaselineResult;
  apiClient: BaselineResult;
  queue: QueueResult;
}

export interface SyncBenchInfo {
  command: string;
  machine: string;
  date: string;
  latencyMs: number;
  concurrency: number;
  redisUrl: string;
  scenario: Scenario;
  rounds: SyncRound[];
  /** Load average (1 min) when each round started. */
  loads: number[];
}

const fixed = (value: number, digits = 2): string => value.toFixed(digits);

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function range(values: readonly number[], digits = 2): string {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high || values.length === 1 ? fixed(low, digits) : `${fixed(low, digits)}–${fixed(high, digits)}`;
}

export function ideal(info: Pick<SyncBenchInfo, 'concurrency' | 'latencyMs'>): number {
  return info.concurrency / (info.latencyMs / 1000);
}

interface Target {
  label: string;
  values: number[];
  ok: (value: number) => boolean;
  digits?: number;
}

function targets(info: SyncBenchInfo): Target[] {
  const perfect = ideal(info);
  const q = info.rounds.map((r) => r.queue);
  return [
    { label: `queue writes/s ÷ ideal ${perfect}/s ≥ 0.85`, values: q.map((r) => r.writesPerSecond / perfect), ok: (v) => v >= 0.85 },
    {
      label: 'service calls ÷ minimal calls = 1.00',
      values: q.map((r) => r.totalCalls / info.scenario.minimalCalls),
      ok: (v) => Math.abs(v - 1) < 0.005,
    },
    {
      label: `service never sees more than ${info.concurrency} in flight`,
      values: q.map((r) => r.maxInFlight),
      ok: (v) => v <= info.concurrency,
      digits: 0,
    },
    {
      label: 'run counts exact, 0 failed, 0 duplicate listings',
      values: q.map((r) => (exact(info.scenario, r) ? 1 : 0)),
      ok: (v) => v === 1,
      digits: 0,
    },
  ];
}

function exact(scenario: Scenario, r: QueueResult): boolean {
  const expectedListings = scenario.remote.length + scenario.creates - scenario.deleted;
  return (
    r.counts.created === scenario.creates &&
    r.counts.updated === scenario.updates &&
    r.counts.deleted === scenario.deleted &&
    r.counts.failed === 0 &&
    r.duplicateKeys === 0 &&
    r.finalListings === expectedListings
  );
}

function perJob(r: QueueResult): { clientCmds: number; roundTrips: number; serverWork: number; serverAll: number } {
  return {
    clientCmds: r.redis.clientWork.commands / r.jobs,
    roundTrips: r.redis.clientWork.roundTrips / r.jobs,
    serverWork: r.redis.serverWork.total / r.jobs,
    serverAll: r.redis.server.total / r.jobs,
  };
}

function topCommands(r: QueueResult, count: number): string {
  return [...r.redis.serverWork.byCommand]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, calls]) => `${name} ${fixed(calls / r.jobs)}`)
    .join(', ');
}

function roundRows(info: SyncBenchInfo): string[] {
  const perfect = ideal(info);
  return info.rounds.map((round, i) => {
    const { undici, apiClient, queue } = round;
    const job = perJob(queue);
    return `| ${i + 1} | ${fixed(info.loads[i] ?? 0)} | ${Math.round(undici.perSecond)} (${fixed(undici.perSecond / perfect)}) | ${Math.round(apiClient.perSecond)} (${fixed(apiClient.perSecond / perfect)}) | ${Math.round(queue.writesPerSecond)} (${fixed(queue.writesPerSecond / perfect)}) | ${fixed(queue.writesPerSecond / undici.perSecond)} | ${fixed(queue.workSeconds, 1)} | ${fixed(undici.avgInFlight / info.concurrency)} / ${fixed(queue.avgInFlight / info.concurrency)} | ${queue.totalCalls} / ${info.scenario.minimalCalls} | ${fixed(job.clientCmds)} / ${fixed(job.roundTrips)} | ${fixed(job.serverWork)} (${fixed(job.serverAll)}) | ${queue.loopDelayMs.p50} / ${queue.loopDelayMs.p99} |`;
  });
}

/** The BENCHMARKS.md section body (heading excluded). */
export function sectionBody(info: SyncBenchInfo): string {
  const { scenario } = info;
  const perfect = ideal(info);
  const first = info.rounds[0]?.queue;
  const lines = [
    `Command: \`${info.command}\`  `,
    `Machine: ${info.machine}  `,
    `Date: ${info.date}  `,
    `Redis: ${info.redisUrl} (other clients connected when round 1 started: ${first ? first.redis.otherClientsAtStart : '?'})`,
    '',
    `Scenario: simulator in-process on port 0, latency ${info.latencyMs} ms, no faults; chatbot with ${scenario.remote.length} listings; a native-profile JSON feed in which ${scenario.changed} listings changed (mix \`${scenario.mix}\`: ${scenario.updates} updates of price and description, ${scenario.creates} creates), plus ${scenario.unchanged} unchanged, and ${scenario.deleted} remote listings absent from the feed (mirror mode, delete scope all: ${scenario.deleteBatches} delete request(s), batch size ${scenario.deleteBatchSize}). The whole sync runs through \`runSync\` + \`syncDeps\` (feed → ${scenario.listPages} list pages → plan → guard → enqueue), then workers start in the same process (\`startConfiguredWorkers\`, --concurrency ${info.concurrency}, default job settings). Timed: first job active → the run's finishedAt. Ideal = ${info.concurrency} / ${info.latencyMs / 1000} s = ${perfect} writes/s. Baselines in the same round, each against a fresh simulator: the same ${scenario.writes.length} write requests with ${info.concurrency} in flight (p-limit), through plain undici and through listing-sync's ApiClient.`,
    '',
    `Verdicts on the median of ${info.rounds.length} round(s); the range is min–max over the rounds.`,
    '',
    '| target | median | range | verdict |',
    '|---|---:|---:|---|',
    ...targets(info).map(
      (t) =>
        `| ${t.label} | ${fixed(median(t.values), t.digits ?? 2)} | ${range(t.values, t.digits ?? 2)} | ${t.ok(median(t.values)) ? 'PASS' : 'MISS'} |`,
    ),
    '',
    '### Rounds',
    '',
    '| round | load 1 min | plain undici writes/s (÷ ideal) | ApiClient writes/s (÷ ideal) | queue writes/s (÷ ideal) | queue ÷ undici | queue s | slots busy: undici / queue | service calls / minimal | Redis cmds / round trips sent per job | Redis cmds per job incl. Lua-inner: work (whole path) | loop delay p50 / p99 ms |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...roundRows(info),
    '',
    '"Slots busy" is the average of the simulator\'s requests in flight (sampled every 5 ms) ÷ the concurrency: 1.00 means no request slot was ever idle, so a ratio below the baseline with slots busy near 1.00 means each request took longer (CPU contention), not that the queue left slots idle.',
    '',
    '"Sent" counts what this process sent to Redis while the workers ran (an EVALSHA is one command; a pipeline is one round trip), divided by jobs. "Incl. Lua-inner" is the INFO commandstats delta, which in Redis 7 also counts every command BullMQ\'s and listing-sync\'s Lua scripts run inside EVALSHA; "whole path" adds the sync (ledger read, run record, key index, addBulk). Both are server-wide: another client of the same Redis would add to them.',
    '',
    first ? `Largest commandstats items per job while the workers ran (round 1): ${topCommands(first, 10)}.` : '',
    first
      ? `Service calls (round 1): ${Object.entries(first.callCounts)
          .filter(([, n]) => n > 0)
          .map(([name, n]) => `${name} ${n}`)
          .join(', ')}; sync (feed + snapshot + plan + enqueue of ${first.jobs} jobs) ${fixed(first.syncSeconds, 1)} s.`
      : '',
  ];
  return lines.join('\n');
}

/** A short console summary. */
export function printable(info: SyncBenchInfo): string {
  const perfect = ideal(info);
  const rows = info.rounds.map((round, i) => {
    const { undici, apiClient, queue } = round;
    const job = perJob(queue);
    return [
      `round ${i + 1} (load ${fixed(info.loads[i] ?? 0)})`,
      `  plain undici   ${Math.round(undici.perSecond)} writes/s = ${fixed(undici.perSecond / perfect)} of ideal ${perfect}/s (max in flight ${undici.maxInFlight}, failures ${undici.failures})`,
      `  ApiClient      ${Math.round(apiClient.perSecond)} writes/s = ${fixed(apiClient.perSecond / perfect)} of ideal`,
      `  queue          ${Math.round(queue.writesPerSecond)} writes/s = ${fixed(queue.writesPerSecond / perfect)} of ideal, ${fixed(queue.writesPerSecond / undici.perSecond)} of plain undici (${queue.writeRequests} writes in ${fixed(queue.workSeconds, 2)} s; sync + enqueue ${fixed(queue.syncSeconds, 2)} s)`,
      `  slots busy     undici ${fixed(undici.avgInFlight / info.concurrency)}, ApiClient ${fixed(apiClient.avgInFlight / info.concurrency)}, queue ${fixed(queue.avgInFlight / info.concurrency)} (average requests in flight ÷ ${info.concurrency})`,
      `  service calls  ${queue.totalCalls} / minimal ${info.scenario.minimalCalls} = ${fixed(queue.totalCalls / info.scenario.minimalCalls, 3)}; max in flight ${queue.maxInFlight}`,
      `  run counts     ${JSON.stringify(queue.counts)}; listings ${queue.finalListings}, duplicate keys ${queue.duplicateKeys}`,
      `  redis per job  sent ${fixed(job.clientCmds)} cmds / ${fixed(job.roundTrips)} round trips; commandstats ${fixed(job.serverWork)} (whole path ${fixed(job.serverAll)}); top: ${topCommands(queue, 8)}`,
      `  event loop     p50 ${queue.loopDelayMs.p50} ms, p99 ${queue.loopDelayMs.p99} ms, max ${queue.loopDelayMs.max} ms; keys left under prefix ${queue.keysLeft}`,
    ].join('\n');
  });
  const verdicts = targets(info).map(
    (t) =>
      `  ${t.ok(median(t.values)) ? 'PASS' : 'MISS'}  ${t.label}: median ${fixed(median(t.values), t.digits ?? 2)}, range ${range(t.values, t.digits ?? 2)}`,
  );
  return [...rows, 'targets:', ...verdicts].join('\n');
}
