/** The phases of `bench:plan`, each run in a child process of its own so that its peak RSS (maxRSS) is the phase's alone. */
import { createReadStream, writeFileSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { createPlanner, planSync } from '../src/domain/planner.js';
import { openFeed } from '../src/feed/open-feed.js';
import { planFeedRows } from '../src/sync/plan-feed-rows.js';
import { LedgerByPosition } from '../src/domain/snapshot/ledger-by-position.js';
import type { RemoteRows } from '../src/domain/snapshot/remote.js';
import { indexRemoteKeys, type RemoteKeyIndex } from '../src/domain/snapshot/remote-key-index.js';
import { generateFeedListings, generateLedger, generateRemote, type ExpectedPlan, type FeedShape } from './generate-feed.js';

export const PHASES = ['baseline', 'importer', 'importer-worker', 'import-plan', 'planner'] as const;
export type PhaseName = (typeof PHASES)[number];

/** ms, cpuMs: wall and CPU time of the measured part (wall includes waiting for a core); peakRssMiB: the whole child's. */
export interface PhaseResult extends Record<'rows' | 'ms' | 'cpuMs' | 'peakRssMiB', number> {
  phase: PhaseName;
  extra: Record<string, number | string>;
}

export type PhaseArgs = { file: string; shape: FeedShape; expected: ExpectedPlan };

type Timed<T> = Record<'ms' | 'cpuMs', number> & { value: T };

async function timed<T>(work: () => Promise<T> | T): Promise<Timed<T>> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = await work();
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { value, ms, cpuMs: (used.user + used.system) / 1000 };
}

/** Resets peak RSS to the current RSS (Linux /proc/self/clear_refs), so import+plan reports its timed part's peak, not its input's. */
function resetPeakRss(): void {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Not Linux: the whole process's peak.
  }
}

const peakRssMiB = (): number => process.resourceUsage().maxRSS / 1024; // maxRSS is in KiB
const result = (phase: PhaseName, rows: number, run: Timed<unknown>, extra: PhaseResult['extra'] = {}): PhaseResult => {
  return { phase, rows, ms: run.ms, cpuMs: run.cpuMs, peakRssMiB: peakRssMiB(), extra };
};
const PLAN = { chatbot: 'bench', keyType: 'MLSNumber', mode: 'mirror', deleteScope: 'managed' } as const;

/** (a) The baseline: bare csv-parse (defaults, columns: false) streaming the file, counting records. */
async function baseline({ file }: PhaseArgs): Promise<PhaseResult> {
  const run = await timed(async () => {
    let records = 0;
    const parser = parse({ bom: true });
    const counting = (async () => {
      for await (const _record of parser) records++;
    })();
    await pipeline(createReadStream(file), parser);
    await counting;
    return records - 1; // the header is a record too
  });
  return result('baseline', run.value, run);
}

// (b) The importer alone: openFeed + every row (parse, map, validate, de-duplicate), on this thread ('main') or in the worker
// thread a sync uses for a large file ('worker': plus handing rows across threads).
async function importer({ file, shape }: PhaseArgs, thread: 'main' | 'worker'): Promise<PhaseResult> {
  const run = await timed(async () => {
    const feed = await openFeed({ source: file, profile: shape.profile, keyType: 'MLSNumber', thread });
    let rows = 0;
    for await (const _row of feed.rows) rows++;
    return { rows, stats: feed.stats() };
  });
  const { stats, rows } = run.value;
  return result(thread === 'main' ? 'importer' : 'importer-worker', rows, run, { valid: stats.valid, rejected: stats.rejected });
}

/** The plan's counts, and what differs from the generator's expected ones ('' when none). */
function planCounts(plan: { creates: unknown[]; updates: unknown[]; deletes: unknown[]; unchanged: number }, expected: ExpectedPlan) {
  const { creates, updates, deletes, unchanged } = plan;
  const counts: ExpectedPlan = { creates: creates.length, updates: updates.length, deletes: deletes.length, unchanged };
  const wrong = (Object.keys(expected) as Array<keyof ExpectedPlan>).filter((name) => counts[name] !== expected[name]);
  return {
    plan: `${counts.creates} create, ${counts.updates} update, ${counts.deletes} delete, ${counts.unchanged} unchanged`,
    mismatch: wrong.map((name) => `${name} ${counts[name]} (expected ${expected[name]})`).join(', '),
  };
}

/** The ledger as a sync reads it (LedgerStore.readLedgerByPosition): by the position of each key's remote listing. */
function ledgerByPosition(shape: FeedShape, index: RemoteKeyIndex, remote: RemoteRows): LedgerByPosition {
  const ledger = new LedgerByPosition(index, remote.length);
  generateLedger(shape, (key, entry) => ledger.add(key, entry.hash));
  return ledger;
}

// (c) Import + plan as `sync` does it (planFeedRows) on a remote and ledger built first. Timed: indexing the remote and the
// planner until the plan is finished; not placing the ledger entries (a sync does it while HSCAN pages arrive).
async function importPlan({ file, shape, expected }: PhaseArgs): Promise<PhaseResult> {
  const remote = generateRemote(shape);
  const indexed = await timed(() => indexRemoteKeys(remote, 'MLSNumber'));
  const ledger = ledgerByPosition(shape, indexed.value, remote);
  // Why settle: 1M listings made in one burst leave ~100 MiB of garbage a real sync would have collected long before.
  (globalThis as { gc?: () => void }).gc?.(); // the parent starts phases with --expose-gc
  const resident = process.memoryUsage();
  const peakBeforeImport = peakRssMiB();
  resetPeakRss();
  let finishMs = 0;
  const run = await timed(async () => {
    const planner = createPlanner({ ...PLAN, remote, index: indexed.value, ledger });
    const feed = await openFeed({ source: file, profile: shape.profile, keyType: 'MLSNumber' });
    // finish() is the only part of planning that cannot overlap the reading: time it on its own.
    const timedPlanner = {
      ...planner,
      finish: () => {
        const start = performance.now();
        const plan = planner.finish();
        finishMs = performance.now() - start;
        return plan;
      },
    };
    return await planFeedRows(feed, Promise.resolve(timedPlanner));
  });
  const timedPart = { value: 0, ms: indexed.ms + run.ms, cpuMs: indexed.cpuMs + run.cpuMs };
  const extra = { residentBeforeImportMiB: resident.rss / 2 ** 20, peakRssBeforeImportMiB: peakBeforeImport, finishMs };
  return result('import-plan', run.value.stats.rows, timedPart, { ...extra, ...planCounts(run.value.planned.plan, expected) });
}

/** (d) The planner alone on pre-built input (feed Map, remote, key index, full ledger): best of 3 rounds. */
async function plannerAlone({ shape, expected }: PhaseArgs): Promise<PhaseResult> {
  const feed = generateFeedListings(shape);
  const remote = generateRemote(shape);
  const index = indexRemoteKeys(remote, 'MLSNumber');
  const ledger = ledgerByPosition(shape, index, remote);
  const rounds: Array<Timed<ReturnType<typeof planSync>>> = [];
  for (let round = 0; round < 3; round++) rounds.push(await timed(() => planSync({ ...PLAN, feed, remote, index, ledger })));
  const best = rounds.reduce((a, b) => (b.ms < a.ms ? b : a));
  const { mismatch } = planCounts(best.value.plan, expected);
  return result('planner', feed.size, best, { rounds: rounds.map((round) => round.ms.toFixed(0)).join(' / '), mismatch });
}

const RUNNERS: Record<PhaseName, (args: PhaseArgs) => Promise<PhaseResult>> = {
  baseline,
  importer: (args) => importer(args, 'main'),
  'importer-worker': (args) => importer(args, 'worker'),
  'import-plan': importPlan,
  planner: plannerAlone,
};
export const runPhase = (name: PhaseName, args: PhaseArgs): Promise<PhaseResult> => RUNNERS[name](args);
