/**
 * bench:sync's figures beyond the rounds, formatted: the cluster figure (worker processes on a
 * Redis Cluster sharing G) and the scale migration (time, peak RSS, CPU per listing).
 */
import type { Block } from './benchmarks-md.js';
import type { ProcessesResult } from './sync-processes.js';
import type { CliWorkResult } from './sync-wire.js';

/** The cluster figure's target: writes/s ÷ (G ÷ latency). */
export const CLUSTER_TARGET = 0.8;

export interface Migration {
  listings: number;
  run: CliWorkResult;
}

const f2 = (n: number): string => n.toFixed(2);

export const clusterRatio = (c: ProcessesResult): number => c.writesPerSecond / c.ideal;

export const clusterName = (c: ProcessesResult): string =>
  `${c.processes} worker processes on a 3-master Redis Cluster sharing G = ${c.global}: writes/s ÷ (G ÷ latency) ≥ ${CLUSTER_TARGET}`;

/** Whether a migration did all it had to: every listing created once, nothing failed, calls minimal. */
export function migrationComplete(m: Migration): boolean {
  const { run } = m;
  return (
    run.created === m.listings &&
    run.failed === 0 &&
    run.listings === m.listings &&
    run.duplicateCreates === 0 &&
    run.calls === run.minimalCalls
  );
}

export interface MigrationFigures {
  cpuPerListingMs: number;
  redisCommandsPerListing: number;
  redisCpuPerListingMs: number;
}

export function migrationFigures(m: Migration): MigrationFigures {
  return {
    cpuPerListingMs: (m.run.cli.cpuSeconds * 1000) / m.listings,
    redisCommandsPerListing: m.run.redisServer.commands / m.listings,
    redisCpuPerListingMs: (m.run.redisServer.cpuSeconds * 1000) / m.listings,
  };
}

/** What one worker process alone reached just before (the cluster figure's same-run baseline), as text. */
function aloneText(c: ProcessesResult, alone: ProcessesResult | undefined): string {
  if (alone === undefined) return '';
  return `; one process alone at --concurrency ${alone.global} on a single Redis: ${alone.writesPerSecond.toFixed(0)} writes/s = ${f2(clusterRatio(alone))} of ideal, cluster ÷ alone ${f2(c.writesPerSecond / alone.writesPerSecond)}`;
}

export function clusterLine(c: ProcessesResult, alone?: ProcessesResult): string {
  return `cluster: ${c.processes} worker processes, 3 masters, G=${c.global}: ${c.writesPerSecond.toFixed(0)} writes/s = ${f2(clusterRatio(c))} of ${c.ideal}/s (target ≥ ${CLUSTER_TARGET}: ${clusterRatio(c) >= CLUSTER_TARGET ? 'PASS' : 'MISS'}), max in flight ${c.maxInFlight}, listings ${c.listings}, duplicate creates ${c.duplicateCreates}${aloneText(c, alone)}`;
}

export function scaleLine(m: Migration): string {
  const r = migrationFigures(m);
  return `scale: ${m.listings} listings migrated in ${f2(m.run.cli.seconds)} s, peak RSS ${m.run.cli.peakRssMiB.toFixed(0)} MiB, CPU ${f2(m.run.cli.cpuSeconds)} s = ${f2(r.cpuPerListingMs)} ms per listing; Redis ${r.redisCommandsPerListing.toFixed(1)} commands and ${f2(r.redisCpuPerListingMs)} ms CPU per listing; ${m.run.created} created, ${m.run.failed} failed, calls ${m.run.calls} / minimal ${m.run.minimalCalls}, ${m.run.duplicateCreates} duplicate creates (${migrationComplete(m) ? 'complete' : 'INCOMPLETE'})`;
}

export function clusterSection(c: ProcessesResult, latencyMs: number, alone?: ProcessesResult): Block[] {
  const ratio = clusterRatio(c);
  const baseline: Block[] =
    alone === undefined
      ? []
      : [
          `Its baseline, measured just before in the same run (not a target): one \`listing-sync worker --concurrency ${alone.global}\` ` +
            `on the single Redis, no permit pool, the same ${alone.listings} creates: ${alone.writesPerSecond.toFixed(0)} writes/s = ` +
            `${f2(clusterRatio(alone))} of ideal; the cluster's processes reach ${f2(c.writesPerSecond / alone.writesPerSecond)} of that. ` +
            'The ratio tells what splitting G over processes on a cluster costs, the baseline what this machine allows at all.',
        ];
  return [
    { heading: 'Redis Cluster' },
    `${c.processes} × \`listing-sync worker --concurrency ${c.global} --global-concurrency ${c.global}\` with REDIS_CLUSTER_NODES set ` +
      'to a cluster of three masters (no replicas, started by the bench on loopback), the creates enqueued by `sync` once the permit ' +
      `pool is past its grace; writes/s timed by the simulator (${latencyMs} ms latency). Ideal = G ÷ latency.`,
    {
      head: ['processes', 'G', 'writes/s', '÷ ideal', 'target', 'verdict', 'max in flight', 'listings / duplicate creates'],
      align: ['r', 'r', 'r', 'r', 'r', 'l'],
      rows: [
        [
          c.processes,
          c.global,
          c.writesPerSecond.toFixed(0),
          f2(ratio),
          `≥ ${CLUSTER_TARGET}`,
          ratio >= CLUSTER_TARGET ? 'PASS' : 'MISS',
          c.maxInFlight,
          `${c.listings} / ${c.duplicateCreates}`,
        ],
      ],
    },
    ...baseline,
  ];
}

export function scaleSection(m: Migration, concurrency: number): Block[] {
  const r = migrationFigures(m);
  const { run } = m;
  return [
    `\`sync --work --concurrency ${concurrency}\` of ${m.listings} new listings into an empty chatbot, simulator in its own process ` +
      "with 0 ms latency, the feed written as a stream (--scale-listings). CPU = the CLI's user + system, every thread; peak RSS = VmHWM.",
    {
      head: [
        'listings',
        'time s',
        'peak RSS MiB',
        'CPU s',
        'CPU ms per listing',
        'Redis commands per listing',
        'Redis CPU ms per listing',
        'created / failed',
        'calls / minimal',
        'duplicate creates',
        'complete',
      ],
      align: ['r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
      rows: [
        [
          m.listings,
          f2(run.cli.seconds),
          run.cli.peakRssMiB.toFixed(0),
          f2(run.cli.cpuSeconds),
          f2(r.cpuPerListingMs),
          r.redisCommandsPerListing.toFixed(1),
          f2(r.redisCpuPerListingMs),
          `${run.created} / ${run.failed}`,
          `${run.calls} / ${run.minimalCalls}`,
          run.duplicateCreates,
          migrationComplete(m) ? 'yes' : 'NO',
        ],
      ],
    },
  ];
}
