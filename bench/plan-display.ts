/**
 * bench:plan's display-policy cost: RESO records through the row pipeline and planner with the default policy against
 * a pass-through step. Every record has a member to blank and an office to attribute, 1 in 10 a blanked address, 1 in 50 is unpublished.
 */
import { jsonBrokenKeyReader } from '../src/feed/broken-row-keys.js';
import { displayStep, type DisplayStep } from '../src/feed/display-step.js';
import { feedHeader, shapeTracker } from '../src/feed/feed-shape-tracker.js';
import { buildResoMapping } from '../src/feed/profiles/reso.js';
import { compileMapping, ruleFor } from '../src/feed/record-mapping.js';
import { rowPipeline } from '../src/feed/row-pipeline.js';
import { jsonColumns, type SourceRecord } from '../src/feed/source-record.js';
import { createPlanner } from '../src/domain/planner.js';
import { emptyDisplayReport } from '../src/domain/display-policy/display-report.js';
import { displayInForce } from '../src/domain/display-policy/policy.js';

/** withPolicyMs, withoutMs: the best round's CPU ms with the default policy and with none. */
export type DisplayFigures = Record<'rows' | 'withPolicyMs' | 'withoutMs', number>;

function records(count: number): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, i) => ({
    ...{ ListingKey: `K${i}`, ListingId: `L${i}`, StandardStatus: 'Active', ListPrice: 300_000 + i, PropertyType: 'Residential' },
    ...{ UnparsedAddress: `${i} Main St`, City: 'Springfield', StateOrProvince: 'IL', PostalCode: '62701', Latitude: 39.8 },
    ...{ Longitude: -89.6, BedroomsTotal: 3, BathroomsTotalInteger: 2, LivingArea: 1800, YearBuilt: 1990 },
    ...{ ListingURL: `https://mls.example/l/${i}`, PublicRemarks: `Remarks of listing ${i}.`, PrivateRemarks: 'agents only' },
    ListOfficeName: `Office ${i % 50}`,
    ...(i % 10 === 0 ? { InternetAddressDisplayYN: false } : {}),
    ...(i % 50 === 1 ? { InternetEntireListingDisplayYN: false } : {}),
  }));
}

const PLAN = { chatbot: 'bench', keyType: 'MLSNumber', mode: 'mirror', deleteScope: 'managed' } as const;
const PASS_THROUGH: DisplayStep = {
  report: emptyDisplayReport(),
  inForce: displayInForce(undefined, 0),
  clean: (record) => record,
  notPublished: () => undefined,
  finish: () => ({ instructed: 0 }),
};

function planOnce(input: readonly SourceRecord[], withPolicy: boolean): number {
  const columns = jsonColumns(input[0] as Record<string, unknown>);
  const mapping = buildResoMapping(columns, { keyType: 'MLSNumber', resoPending: 'active' });
  const compiled = compileMapping(mapping);
  const shape = shapeTracker(feedHeader('json', columns, compiled.rules), columns, compiled.rules, compiled.produced);
  const display = withPolicy ? displayStep({ now: Date.now() }, columns, compiled.rules) : PASS_THROUGH;
  const start = process.cpuUsage();
  const pipeline = rowPipeline(mapping, compiled, 'MLSNumber', jsonBrokenKeyReader(ruleFor(mapping, 'MLSNumber')), shape, display);
  const planner = createPlanner({ ...PLAN, remote: [], ledger: new Map() });
  let line = 0;
  for (const record of input) {
    const row = pipeline.toRow({ line: (line += 1), record });
    if (row.kind === 'listing') planner.add(row.key, row.listing, row.filled, row.instructed);
  }
  planner.finish();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

export function measureDisplay(rows = 100_000): DisplayFigures {
  const input = records(rows);
  let [withPolicyMs, withoutMs] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  // A warm-up round each, then 3 measured: interleaved so a noisy neighbour hurts both alike.
  for (let round = 0; round < 4; round++) {
    const [without, withPolicy] = [planOnce(input, false), planOnce(input, true)];
    if (round === 0) continue;
    withoutMs = Math.min(withoutMs, without);
    withPolicyMs = Math.min(withPolicyMs, withPolicy);
  }
  return { rows, withPolicyMs, withoutMs };
}

export function displayParagraph(figures: DisplayFigures): string {
  const per100k = (ms: number): string => `${((ms * 100_000) / figures.rows / 1000).toFixed(2)} s`;
  const ratio = figures.withPolicyMs / figures.withoutMs;
  return (
    `Display policy: ${figures.rows.toLocaleString('en-US')} RESO records mapped and planned (row pipeline + planner, in memory, CPU time, best of 3): ` +
    `${per100k(figures.withPolicyMs)} per 100k listings with the default display policy, ${per100k(figures.withoutMs)} with none ` +
    `(×${ratio.toFixed(2)}).`
  );
}
