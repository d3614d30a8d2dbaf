/**
 * `npm run bench:rejects`: N rows all failing validation, synced by the built CLI (`--dry-run`, then a plain sync the
 * guard refuses) beside bare csv-parse. Targets (issue 48): peak RSS ≤ 256 MiB, ≤ 1,000 rows kept (MAX_REJECTED_KEPT).
 * Usage: node dist/bench/rejects.js [--rows N] [--no-write]
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { startSimulator } from '../src/sim/server.js';
import { fixed, head, measuredTargets, publish, table } from './benchmarks-md.js';
import { cliEnv, runCli } from './cli-child.js';
import { cleanPrefix, measuringRedis, newPrefix, parseOptions, REDIS_URL, runJson } from './kit.js';
import type { PhaseResult } from './plan-phases.js';

const argv = process.argv.slice(2);
const { rows, write } = parseOptions(argv, { rows: 1_000_000, write: true });
const [TARGET_MIB, KEPT_MAX, CHATBOT] = [256, 1000, 'bench-rejects'];
const HEADER =
  'MLSNumber,Url,SaleType,Status,CurrencySymbol,PropertyType,Bedrooms,Bathrooms,YearBuilt,DaysOnMarket,LotArea,BuildingArea,AreaUnit,ParkingSpots\n';

/** N rows, each with its own key and a Bedrooms that is not a number: every one is rejected. */
async function writeBadFeed(path: string): Promise<void> {
  const out = createWriteStream(path);
  out.write(HEADER);
  let chunk = '';
  for (let i = 0; i < rows; i++) {
    chunk += `ML${i},https://homes.example/${i},for_sale,Active,$,Condo,three-${i},1,1990,3,0,800,Square Feet,1\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

const at = head('bench:rejects', argv);
const prefix = newPrefix('rejects');
const dir = mkdtempSync(join(tmpdir(), 'bench-rejects-'));
const sim = await startSimulator({ chatbots: [CHATBOT] });
const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
type Run = Record<'peakRssMiB' | 'seconds' | 'cpuSeconds' | 'commands' | 'kept', number> & { label: string; rejected: string };
const runs: Array<Run & { code: number | null }> = [];
let baseline: PhaseResult;
try {
  const feed = join(dir, 'all-bad.csv');
  await writeBadFeed(feed);
  const plan = fileURLToPath(new URL('./plan.js', import.meta.url));
  baseline = await runJson<PhaseResult>(plan, ['--phase', 'baseline', JSON.stringify({ file: feed })]);
  const variants = { 'sync --dry-run': ['--dry-run'], 'sync (refused by the guard)': [] };
  for (const [label, extra] of Object.entries(variants)) {
    const args = ['sync', '--chatbot', CHATBOT, '--feed', feed, '--json', ...extra];
    const { result: run, work } = await measuringRedis(REDIS_URL, () => runCli(args, cliEnv(sim, REDIS_URL, prefix)));
    const summary = JSON.parse(run.stdout || '{}') as { feed?: { rejected?: number } };
    const keys: string[] = [];
    for await (const found of redis.scanStream({ match: `${prefix}*rejected*`, count: 1000 })) keys.push(...(found as string[]));
    const kept = (await Promise.all(keys.map((key) => redis.llen(key)))).reduce((sum, n) => sum + n, 0);
    runs.push({ label, rejected: String(summary.feed?.rejected ?? '?'), ...run, commands: work.commands, kept });
  }
} finally {
  await Promise.all([cleanPrefix(redis, prefix), sim.close()]);
  redis.disconnect();
  rmSync(dir, { recursive: true, force: true });
}
const worst = Math.max(...runs.map((run) => run.peakRssMiB));
const missed = await publish('bench:rejects', at, write, [
  `A CSV feed of ${rows.toLocaleString('en-US')} rows, every one rejected (Bedrooms not a number), synced by the built CLI against ` +
    'the service simulator and Redis: `sync --dry-run`, then a plain sync (refused by the rejected-share guard). Peak RSS = the ' +
    "CLI's VmHWM; CPU = the CLI's, every thread; Redis commands server side. Baseline: bare csv-parse of the same file, same run.",
  measuredTargets([
    [`peak RSS ≤ ${TARGET_MIB} MiB`, `${fixed(worst, 0)} MiB`, worst <= TARGET_MIB],
    [`rejected rows kept in Redis ≤ ${KEPT_MAX}`, String(Math.max(...runs.map((r) => r.kept))), runs.every((r) => r.kept <= KEPT_MAX)],
    ['peak RSS ÷ bare csv-parse', `${fixed(worst / baseline.peakRssMiB)}×`],
  ]),
  table(runs, [
    ['run', (r) => r.label],
    ['exit', (r) => String(r.code)],
    ['rejected', (r) => r.rejected],
    ['peak RSS MiB', (r) => fixed(r.peakRssMiB, 0)],
    ['s', (r) => fixed(r.seconds, 1)],
    ['CPU s', (r) => fixed(r.cpuSeconds)],
    ['CPU ÷ csv-parse', (r) => fixed(r.cpuSeconds / (baseline.cpuMs / 1000))],
    ['Redis commands', (r) => r.commands],
    ['rows kept', (r) => r.kept],
  ]),
  `Bare csv-parse of the same file: ${fixed(baseline.cpuMs / 1000)} s CPU, peak RSS ${fixed(baseline.peakRssMiB, 0)} MiB.`,
]);
if (missed) process.exitCode = 1;
