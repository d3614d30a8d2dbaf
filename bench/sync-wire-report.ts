/** bench:sync's console lines and its BENCHMARKS.md section (sync-cli.ts measures, this formats). */
import { median, medianTargets, sectionBody, type Block, type MedianTarget, type SectionHead } from './benchmarks-md.js';
import type { ProcessesResult } from './sync-processes.js';
import type { BareResult, CliWorkResult, FloorResult } from './sync-wire.js';
import {
  CLUSTER_TARGET,
  clusterLine,
  clusterName,
  clusterRatio,
  clusterSection,
  migrationComplete,
  scaleLine,
  scaleSection,
  type Migration,
} from './sync-wire-figures.js';
import { cpuSplit, cpuSplitLine, cpuSplitSection, type CpuSplit, type CpuSplitRun } from './sync-cpu-split.js';

export interface WireRound {
  load: number;
  bare: BareResult;
  /** The BullMQ floor of the same round (bullmq-floor.ts). */
  floor: FloorResult;
  cli: CliWorkResult;
  /** CPU of `sync --dry-run` of the same feed (start-up, feed, snapshot, plan, guard: no queue). */
  planCpuSeconds: number;
}

export interface WireInfo extends SectionHead {
  creates: number;
  concurrency: number;
  latencyMs: number;
  rounds: WireRound[];
  processes: ProcessesResult[];
  rss?: Migration;
  /** Worker processes on a Redis Cluster sharing G (issue 30's cluster figure). */
  cluster?: ProcessesResult;
  /** The cluster figure's baseline: one worker process at --concurrency G on the single Redis, same run. */
  clusterAlone?: ProcessesResult;
  /** The scale migration (--scale-listings). */
  scale?: Migration;
  /** The CPU split's larger run (--long-creates). */
  long?: CpuSplitRun;
}

const RSS_LIMIT_MIB = 256;

const f2 = (n: number): string => n.toFixed(2);

/**
 * Whole seconds of the writes phase counted as its start: the sync's writes/s climbs over about
 * that long (JIT warm-up, the enqueue thread at work) while the bare loop's is flat from its first.
 */
const START_SECONDS = 3;

/** Mean writes/s over whole seconds from START_SECONDS on (NaN when the phase is shorter). */
function steadyPerSecond(bySecond: readonly number[]): number {
  const steady = bySecond.slice(START_SECONDS);
  return steady.length === 0 ? Number.NaN : steady.reduce((a, b) => a + b, 0) / steady.length;
}

/** "676 679 706 …": writes answered in each whole second of a phase. */
const perSecondText = (bySecond: readonly number[]): string => bySecond.join(' ');

interface RoundFigures {
  writesRatio: number;
  idealSeconds: number;
  wholeRatio: number;
  /** The bare loop's time for the same creates ÷ the whole command's: "ideal" as this machine allows it. */
  wholeBareRatio: number;
  roundTripsPerJob: number;
  commandsPerJob: number;
  callsRatio: number;
  exact: boolean;
  /** The sync's writes/s ÷ the bare loop's, each from START_SECONDS on (not a target: where the gap is). */
  steadyRatio: number;
  /** CPU of `sync --work` (every thread) per listing, ms; the bare loop's per request; their ratio. */
  cpuPerListingMs: number;
  bareCpuPerRequestMs: number;
  cpuRatio: number;
  /** The BullMQ floor's CPU ÷ the bare loop's, and `sync --work`'s ÷ the floor's (not targets: where the ratio comes from). */
  floorRatio: number;
  overFloorRatio: number;
  /** (`sync --work`'s CPU − the plan alone's) ÷ the floor's: the queue and the work against what BullMQ alone costs. */
  queuedOverFloorRatio: number;
  /** Redis server side while the CLI ran (Lua's commands included): commands and CPU ms per listing. */
  serverCommandsPerListing: number;
  serverCpuPerListingMs: number;
}

function figures(info: WireInfo, round: WireRound): RoundFigures {
  const { cli } = round;
  const idealSeconds = info.creates / (info.concurrency / (info.latencyMs / 1000));
  const jobs = Math.max(1, cli.jobs);
  return {
    writesRatio: cli.writesPerSecond / round.bare.perSecond,
    idealSeconds,
    wholeRatio: idealSeconds / cli.cli.seconds,
    wholeBareRatio: round.bare.wallSeconds / cli.cli.seconds,
    roundTripsPerJob: cli.cli.redis.roundTrips / jobs,
    commandsPerJob: cli.cli.redis.commands / jobs,
    callsRatio: cli.calls / cli.minimalCalls,
    exact: cli.created === info.creates && cli.failed === 0 && cli.duplicateCreates === 0 && cli.listings === info.creates,
    steadyRatio: steadyPerSecond(cli.writesBySecond) / steadyPerSecond(round.bare.bySecond),
    cpuPerListingMs: (cli.cli.cpuSeconds * 1000) / info.creates,
    bareCpuPerRequestMs: (round.bare.cpuSeconds * 1000) / info.creates,
    cpuRatio: cli.cli.cpuSeconds / round.bare.cpuSeconds,
    floorRatio: round.floor.cpuSeconds / round.bare.cpuSeconds,
    overFloorRatio: cli.cli.cpuSeconds / round.floor.cpuSeconds,
    queuedOverFloorRatio: (cli.cli.cpuSeconds - round.planCpuSeconds) / round.floor.cpuSeconds,
    serverCommandsPerListing: cli.redisServer.commands / info.creates,
    serverCpuPerListingMs: (cli.redisServer.cpuSeconds * 1000) / info.creates,
  };
}

/** Issue 30's target for the whole command, start to exit, against ideal. */
const WHOLE_IDEAL_TARGET = 0.85;

function targets(info: WireInfo): MedianTarget[] {
  const all = info.rounds.map((round) => figures(info, round));
  const list: MedianTarget[] = [
    { name: 'writes phase ÷ bare keep-alive loop, same round ≥ 0.95', values: all.map((r) => r.writesRatio), pass: (v) => v >= 0.95 },
    {
      name: 'whole command (start to exit) ÷ same-round bare loop ≥ 0.85',
      values: all.map((r) => r.wholeBareRatio),
      pass: (v) => v >= 0.85,
    },
    {
      name: `whole command (start to exit) ÷ ideal ≥ ${WHOLE_IDEAL_TARGET}`,
      values: all.map((r) => r.wholeRatio),
      pass: (v) => v >= WHOLE_IDEAL_TARGET,
    },
    { name: 'Redis round trips per job (whole command) ≤ 2', values: all.map((r) => r.roundTripsPerJob), pass: (v) => v <= 2 },
    {
      name: "CPU of sync --work per listing (every thread) ÷ the bare loop's CPU per request ≤ 3.0",
      values: all.map((r) => r.cpuRatio),
      pass: (v) => v <= 3,
    },
    {
      name: 'Redis commands per listing, server side (Lua included) ≤ 45',
      values: all.map((r) => r.serverCommandsPerListing),
      pass: (v) => v <= 45,
      digits: 1,
    },
    { name: 'Redis CPU per listing ≤ 0.3 ms', values: all.map((r) => r.serverCpuPerListingMs), pass: (v) => v <= 0.3 },
    { name: 'service calls ÷ minimal calls = 1.00', values: all.map((r) => r.callsRatio), pass: (v) => Math.abs(v - 1) < 1e-9 },
    {
      name: 'run counts exact, 0 failed, 0 duplicate creates',
      values: all.map((r) => (r.exact ? 1 : 0)),
      pass: (v) => v === 1,
      digits: 0,
    },
    {
      name: `service never sees more than ${info.concurrency} in flight`,
      values: info.rounds.map((r) => r.cli.maxInFlight),
      pass: (v) => v <= info.concurrency,
      digits: 0,
    },
  ];
  if (info.rss)
    list.push({
      name: `peak RSS of the CLI, ${info.rss.listings} listings migrated ≤ ${RSS_LIMIT_MIB} MiB`,
      values: [info.rss.run.cli.peakRssMiB],
      pass: (v) => v <= RSS_LIMIT_MIB,
      digits: 0,
    });
  if (info.cluster) {
    const ratio = clusterRatio(info.cluster);
    list.push({ name: clusterName(info.cluster), values: [ratio], pass: (v) => v >= CLUSTER_TARGET });
  }
  if (info.scale)
    list.push({
      name: `${info.scale.listings}-listing migration completes (all created once, 0 failed, calls = minimal)`,
      values: [migrationComplete(info.scale) ? 1 : 0],
      pass: (v) => v === 1,
      digits: 0,
    });
  return list;
}

/** The per-listing costs and the two pace ratios of every round, and their medians (issue 30's "Bench output"). */
const COST_COLUMNS: Array<[label: string, pick: (r: RoundFigures) => number, digits: number]> = [
  ['sync --work CPU ms per listing', (r) => r.cpuPerListingMs, 2],
  ['bare loop CPU ms per request', (r) => r.bareCpuPerRequestMs, 2],
  ['CPU ratio', (r) => r.cpuRatio, 2],
  ['BullMQ floor CPU ÷ bare loop', (r) => r.floorRatio, 2],
  ['sync --work CPU ÷ BullMQ floor', (r) => r.overFloorRatio, 2],
  ['(sync --work − plan alone) CPU ÷ BullMQ floor', (r) => r.queuedOverFloorRatio, 2],
  ['Redis commands per listing', (r) => r.serverCommandsPerListing, 1],
  ['Redis CPU ms per listing', (r) => r.serverCpuPerListingMs, 2],
  ['writes phase ÷ bare loop', (r) => r.writesRatio, 2],
  ['whole command ÷ ideal', (r) => r.wholeRatio, 2],
];

function costMedians(info: WireInfo): number[] {
  const all = info.rounds.map((round) => figures(info, round));
  return COST_COLUMNS.map(([, pick]) => median(all.map(pick)));
}

/** The CPU split of the rounds' medians and the long run, when it was measured. */
function split(info: WireInfo): CpuSplit | undefined {
  if (info.long === undefined || info.rounds.length === 0) return undefined;
  const all = info.rounds.map((round) => figures(info, round));
  const shortCpu = median(info.rounds.map((round) => round.cli.cli.cpuSeconds));
  return cpuSplit(info.creates, shortCpu, median(all.map((r) => r.bareCpuPerRequestMs)), info.long);
}

/** Each target's median, range and verdict, for the terminal. */
function targetLines(info: WireInfo): string[] {
  return medianTargets(targets(info)).rows.map(([name, m, range, verdict]) => `  ${verdict}  ${name}: median ${m}, range ${range}`);
}

/**
 * The machine's own ceiling for the whole command (not a target): the same-round bare loop's
 * start to exit ÷ ideal. Why shown: "whole command ÷ ideal ≥ 0.85" holds the command to ideal,
 * but the bare loop itself loses to ideal on a shared 2-core machine (0.76–0.95 measured on the
 * hosts of 2026-11-29), so the target holds only where whole ÷ bare loop is at least 0.85 ÷ this.
 */
function bareCeilingLine(info: WireInfo): string {
  const values = info.rounds.map((round) => figures(info, round).idealSeconds / round.bare.wallSeconds);
  if (values.length === 0) return '';
  const m = median(values);
  const range = `${f2(Math.min(...values))}–${f2(Math.max(...values))}`;
  return `Not a target: the same-round bare loop itself ran, start to exit, at ${f2(m)} (${range}) of ideal on this machine, so whole ÷ ideal ≥ ${WHOLE_IDEAL_TARGET} holds only where whole ÷ same-round bare loop is at least ${f2(WHOLE_IDEAL_TARGET / m)}.`;
}

function roundRows(info: WireInfo): string[][] {
  return info.rounds.map((round, i) => {
    const r = figures(info, round);
    const { cli } = round;
    return [
      String(i + 1),
      f2(round.load),
      round.bare.perSecond.toFixed(0),
      cli.writesPerSecond.toFixed(0),
      f2(r.writesRatio),
      f2(round.bare.wallSeconds),
      `${f2(cli.cli.seconds)} (${f2(r.idealSeconds)})`,
      `${f2(r.wholeBareRatio)} / ${f2(r.wholeRatio)}`,
      `${f2(r.roundTripsPerJob)} / ${f2(r.commandsPerJob)}`,
      `${cli.calls} / ${cli.minimalCalls}`,
      String(cli.maxInFlight),
      `${f2(round.bare.slotsBusy)} / ${f2(cli.slotsBusy)}`,
      cli.cli.peakRssMiB.toFixed(0),
    ];
  });
}

/** One row per (G, processes): the permit pool beside G split by hand, measured in the same run. */
function processRows(info: WireInfo): string[][] {
  return info.processes
    .filter((p) => p.mode === 'pool')
    .map((p) => {
      const split = info.processes.find((s) => s.mode === 'split' && s.global === p.global && s.processes === p.processes);
      const splitCells =
        split === undefined
          ? ['—', '—', '—']
          : [split.writesPerSecond.toFixed(0), f2(split.writesPerSecond / split.ideal), f2(p.writesPerSecond / split.writesPerSecond)];
      const pool = [String(p.global), String(p.processes), p.writesPerSecond.toFixed(0), f2(p.writesPerSecond / p.ideal)];
      return [...pool, ...splitCells, String(p.maxInFlight), `${p.listings} / ${p.duplicateCreates}`];
    });
}

export function printWire(info: WireInfo): string {
  const lines = [`bench:sync — ${info.creates} creates, concurrency ${info.concurrency}, latency ${info.latencyMs} ms`];
  for (const [i, round] of info.rounds.entries()) {
    const r = figures(info, round);
    lines.push(
      `round ${i + 1} (load ${f2(round.load)}): bare loop ${round.bare.perSecond.toFixed(0)}/s; sync --work writes ${round.cli.writesPerSecond.toFixed(0)}/s = ${f2(r.writesRatio)} of bare; whole ${f2(round.cli.cli.seconds)} s = ${f2(r.wholeBareRatio)} of the bare loop's ${f2(round.bare.wallSeconds)} s, ${f2(r.wholeRatio)} of ideal ${f2(r.idealSeconds)} s; Redis ${f2(r.roundTripsPerJob)} round trips / ${f2(r.commandsPerJob)} cmds per job; calls ${round.cli.calls}/${round.cli.minimalCalls}; max in flight ${round.cli.maxInFlight}; slots busy bare ${f2(round.bare.slotsBusy)} / sync ${f2(round.cli.slotsBusy)}; RSS ${round.cli.cli.peakRssMiB.toFixed(0)} MiB`,
      `  CPU: sync --work ${f2(round.cli.cli.cpuSeconds)} s = ${f2(r.cpuPerListingMs)} ms per listing, bare loop ${f2(round.bare.cpuSeconds)} s = ${f2(r.bareCpuPerRequestMs)} ms per request, ratio ${f2(r.cpuRatio)}; BullMQ floor ${f2(round.floor.cpuSeconds)} s = ${f2(r.floorRatio)}× the bare loop, sync --work ${f2(r.overFloorRatio)}× the floor, ${f2(r.queuedOverFloorRatio)}× beyond its plan alone (sync --dry-run ${f2(round.planCpuSeconds)} s) (floor: ${round.floor.listings} listings, ${round.floor.failures} failed, ${round.floor.duplicateCreates} duplicate creates); Redis server ${f2(r.serverCommandsPerListing)} commands and ${f2(r.serverCpuPerListingMs)} ms CPU per listing (${round.cli.redisServer.otherClients} other clients connected)`,
      `  writes per second: bare ${perSecondText(round.bare.bySecond)}; sync ${perSecondText(round.cli.writesBySecond)}; from second ${START_SECONDS + 1} on sync ÷ bare ${f2(r.steadyRatio)}; sync spawn → first write ${f2(round.cli.leadSeconds)} s, last write → exit ${f2(round.cli.tailSeconds)} s`,
    );
  }
  lines.push(
    `medians: ${COST_COLUMNS.map(([label, , digits], i) => `${label} ${(costMedians(info)[i] ?? 0).toFixed(digits)}`).join('; ')}`,
  );
  for (const p of info.processes)
    lines.push(
      `G=${p.global}, ${p.processes} process(es), ${p.mode}: ${p.writesPerSecond.toFixed(0)} writes/s (${f2(p.writesPerSecond / p.ideal)} of ${p.ideal}/s), max in flight ${p.maxInFlight}`,
    );
  if (info.rss)
    lines.push(`${info.rss.listings} listings: peak RSS ${info.rss.run.cli.peakRssMiB.toFixed(0)} MiB, ${f2(info.rss.run.cli.seconds)} s`);
  if (info.cluster) lines.push(clusterLine(info.cluster, info.clusterAlone));
  if (info.scale) lines.push(scaleLine(info.scale));
  const cpu = split(info);
  if (cpu && info.long) lines.push(cpuSplitLine(cpu, info.long));
  lines.push('targets:', ...targetLines(info));
  lines.push(bareCeilingLine(info));
  return lines.join('\n');
}

/**
 * The "bench:sync scale" section: a section of its own, because a 1,000,000-listing migration takes
 * half an hour and is run apart (`--scale-only`); a bench:sync run without it leaves it as it is.
 */
export function scaleBenchSection(info: WireInfo & { scale: Migration }): string {
  return sectionBody(info, scaleSection(info.scale, info.concurrency));
}

function costTable(info: WireInfo): Block {
  return {
    head: [
      'round',
      'sync --work CPU s',
      'bare loop CPU s',
      'BullMQ floor CPU s',
      'plan alone CPU s',
      ...COST_COLUMNS.map(([label]) => label),
      'other Redis clients',
    ],
    align: ['r'],
    rows: [
      ...info.rounds.map((round, i) => {
        const r = figures(info, round);
        const cells = COST_COLUMNS.map(([, pick, digits]) => pick(r).toFixed(digits));
        const cpu = [round.cli.cli.cpuSeconds, round.bare.cpuSeconds, round.floor.cpuSeconds, round.planCpuSeconds].map(f2);
        return [String(i + 1), ...cpu, ...cells, String(round.cli.redisServer.otherClients)];
      }),
      ['median', '', '', '', '', ...costMedians(info).map((m, i) => m.toFixed(COST_COLUMNS[i]?.[2] ?? 2)), ''],
    ],
  };
}

function bySecondTable(info: WireInfo): Block {
  return {
    head: ['round', 'bare loop', 'sync --work', 'steady sync ÷ bare', 'sync: spawn → first write s', 'last write → exit s'],
    align: ['r', 'l', 'l'],
    rows: info.rounds.map((round, i) => [
      String(i + 1),
      perSecondText(round.bare.bySecond),
      perSecondText(round.cli.writesBySecond),
      f2(figures(info, round).steadyRatio),
      f2(round.cli.leadSeconds),
      f2(round.cli.tailSeconds),
    ]),
  };
}

function processBlocks(info: WireInfo): Block[] {
  if (info.processes.length === 0) return [];
  return [
    { heading: 'Worker processes' },
    `Pool: \`listing-sync worker --concurrency G --global-concurrency G\` × N (the request permit pool), started first, the creates ` +
      `enqueued by \`sync\` once the pool is past its grace. Split by hand: \`worker --concurrency G÷N\` × N, no pool, measured right ` +
      `after. Writes/s timed by the simulator (${info.latencyMs} ms latency); ideal = G ÷ latency.`,
    {
      head: [
        'G',
        'processes',
        'pool writes/s',
        '÷ ideal',
        'split writes/s',
        '÷ ideal',
        'pool ÷ split',
        'max in flight',
        'listings / duplicate creates',
      ],
      align: ['r'],
      rows: processRows(info),
    },
  ];
}

function memoryBlock(info: WireInfo): Block {
  if (info.rss === undefined) return '';
  const { run } = info.rss;
  return (
    `Migration memory: \`sync --work\` of ${info.rss.listings} creates against a simulator with 0 ms latency, default Node options: ` +
    `peak RSS ${run.cli.peakRssMiB.toFixed(0)} MiB, ${f2(run.cli.seconds)} s, ${run.created} created, ${run.failed} failed, ` +
    `calls ${run.calls} / minimal ${run.minimalCalls}.`
  );
}

export function wireSection(info: WireInfo): string {
  const idealPerSecond = info.concurrency / (info.latencyMs / 1000);
  const cpu = split(info);
  return sectionBody(info, [
    `Scenario: ${info.creates} creates into an empty chatbot (a migration), the simulator in a process of its own ` +
      `(bench/wire-sim.ts) with ${info.latencyMs} ms latency, a fresh simulator and Redis prefix per measurement. Each round runs, ` +
      `as separate processes: the bare keep-alive loop (bench/bare-loop.ts: the same creates, ${info.concurrency} in flight, one ` +
      `undici Pool, no queue, no Redis), then \`listing-sync sync --work --concurrency ${info.concurrency} --json\` timed from spawn ` +
      `to exit. "Writes phase" is timed by the simulator: first create answered → last. Ideal = ${info.creates} ÷ ${idealPerSecond}/s. ` +
      'Redis round trips and commands are counted in the CLI process on its sockets (every connection and thread), divided by jobs; ' +
      "peak RSS = the CLI's VmHWM. Verdicts on the median of the rounds; the range is min–max.",
    medianTargets(targets(info)),
    bareCeilingLine(info),
    { heading: 'Rounds' },
    {
      head: [
        'round',
        'load 1 min',
        'bare loop writes/s',
        'sync --work writes/s',
        '÷ bare',
        'bare loop s',
        'whole s (ideal)',
        'whole ÷ bare loop / ÷ ideal',
        'Redis round trips / cmds per job',
        'calls / minimal',
        'max in flight',
        'slots busy: bare / sync',
        'peak RSS MiB',
      ],
      align: ['r'],
      rows: roundRows(info),
    },
    'What each listing costs the machine: the CPU of `sync --work` (user + system, every thread, from its own getrusage) beside the ' +
      "bare loop's CPU per request; the BullMQ floor of the same round (bench/bullmq-floor.ts: the same creates as one BullMQ job " +
      "each, sent by a BullMQ Worker through one undici Pool, nothing else); the same feed's `sync --dry-run` (start-up, feed, " +
      "snapshot, plan, guard), whose CPU taken from `sync --work`'s leaves what the queue and the work cost; and the Redis server " +
      "while the command ran (INFO commandstats and cpu before and after, Lua included; server-wide, so other clients' count is shown).",
    costTable(info),
    `Writes answered in each whole second of the writes phase ("steady" = from second ${START_SECONDS + 1} on), and the sync's time ` +
      'outside it: spawn → first write answered, and last write answered → exit.',
    bySecondTable(info),
    ...processBlocks(info),
    memoryBlock(info),
    ...(info.cluster ? clusterSection(info.cluster, info.latencyMs, info.clusterAlone) : []),
    ...(cpu && info.long ? cpuSplitSection(cpu, info.long, info.creates) : []),
  ]);
}
