/**
 * The display rules over random RESO records and random policies, through the real importer (a
 * feed file with a mapping that tries every way to send what is withheld: a column, a template,
 * ExtensionColumn) and through a replicated pull: no restricted field, no field the policy
 * withholds and no field a record's flags forbid appears in any payload; a forbidden record is
 * never published; every published payload carries its attribution.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DisplayPolicy } from '../../src/domain/display-policy/policy.js';
import type { ListingFields } from '../../src/domain/listing.js';
import { openFeedInThisThread, type FeedRow } from '../../src/feed/open-feed.js';
import { replicatedFeed } from '../../src/feed/reso-api/replicated-feed.js';
import type { ReplicationRun } from '../../src/feed/reso-api/replicate.js';
import type { ReplicationResult, ResoRecord } from '../../src/feed/reso-api/types.js';

const RESTRICTED = ['PrivateRemarks', 'ShowingInstructions', 'ShowingContactPhone', 'BuyerBrokerageCompensation'] as const;
const OPTIONAL_SECRETS = ['ListAgentEmail', 'ListAgentDirectPhone'] as const;
const MEMBERS = [...RESTRICTED, ...OPTIONAL_SECRETS];
const NOW = Date.parse('2027-01-20T00:00:00Z');

const flag = fc.constantFrom<boolean | undefined>(undefined, true, false);
const recordArb = fc.record({
  entire: flag,
  address: flag,
  valuation: flag,
  canUse: fc.constantFrom<string[] | undefined>(undefined, ['IDX'], ['VOW'], ['IDX', 'VOW'], ['BO'], []),
  office: fc.constantFrom<string | undefined>(undefined, 'Acme Realty', 'Lakeside Homes'),
  phone: fc.constantFrom<string | undefined>(undefined, '555-0100'),
});
const policyArb = fc.record({
  withhold: fc.subarray([...OPTIONAL_SECRETS]),
  requireAttribution: fc.boolean(),
  attribution: fc.constantFrom<string | undefined>(undefined, 'Courtesy of {ListOfficeName} ({ListOfficePhone})'),
  ruleFrom: fc.constantFrom<string | undefined>(undefined, '2027-01-15', '2027-02-01'),
});
type RecordSpec = typeof recordArb extends fc.Arbitrary<infer T> ? T : never;
type PolicySpec = typeof policyArb extends fc.Arbitrary<infer T> ? T : never;

function resoRecord(index: number, spec: RecordSpec): ResoRecord {
  const record: ResoRecord = {
    ListingKey: `K${index}`,
    ListingId: `L${index}`,
    StandardStatus: 'Active',
    ListPrice: 400_000 + index,
    PropertyType: 'Residential',
    UnparsedAddress: `${index} Main St`,
    Latitude: 41.5,
    Longitude: -87.5,
    City: 'Springfield',
    ListingURL: `https://mls.example/l/${index}`,
    PublicRemarks: `Public remarks ${index}`,
    AVMValue: 410_000,
    ModificationTimestamp: '2027-01-01T00:00:00.000Z',
    ListOfficeName: spec.office ?? null,
    ListOfficePhone: spec.phone ?? null,
  };
  for (const member of MEMBERS) record[member] = `SECRET-${member}-${index}`;
  if (spec.entire !== undefined) record.InternetEntireListingDisplayYN = spec.entire;
  if (spec.address !== undefined) record.InternetAddressDisplayYN = spec.address;
  if (spec.valuation !== undefined) record.InternetAutomatedValuationDisplayYN = spec.valuation;
  if (spec.canUse !== undefined) record.MlgCanUse = spec.canUse;
  return record;
}

function policyOf(spec: PolicySpec): DisplayPolicy {
  const policy: DisplayPolicy = { requireAttribution: spec.requireAttribution };
  if (spec.attribution !== undefined) policy.attribution = spec.attribution;
  // A dated rule: in force at NOW only when its date has passed.
  if (spec.ruleFrom !== undefined) policy.rules = [{ from: spec.ruleFrom, withhold: spec.withhold }];
  else if (spec.withhold.length > 0) policy.withhold = spec.withhold;
  return policy;
}

/** A mapping that names every secret every way it can: a column, a template, ExtensionColumn. */
const LEAKY_MAPPING = {
  profile: 'reso',
  columns: { Description: 'PrivateRemarks', ZestimatePrice: 'AVMValue' },
  templates: { Location: '{ShowingInstructions} / {ListAgentEmail} / {City}' },
  extension: [...MEMBERS],
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'display-property-'));
  await writeFile(join(dir, 'mapping.json'), JSON.stringify(LEAKY_MAPPING));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

let fileCount = 0;
async function fileRows(records: ResoRecord[], policy: DisplayPolicy): Promise<FeedRow[]> {
  const path = join(dir, `feed-${(fileCount += 1)}.ndjson`);
  await writeFile(path, records.map((record) => JSON.stringify(record)).join('\n'));
  const feed = await openFeedInThisThread({
    source: path,
    profile: 'reso',
    mapping: join(dir, 'mapping.json'),
    keyType: 'MLSNumber',
    display: { policy, now: NOW },
  });
  const rows: FeedRow[] = [];
  for await (const row of feed.rows) rows.push(row);
  return rows;
}

function fakeRun(records: ResoRecord[]): ReplicationRun {
  const result = (): ReplicationResult => ({
    complete: true,
    maxTimestamp: undefined,
    requests: 1,
    bytes: 0,
    records: records.length,
    pageSize: 10,
    pagedBy: undefined,
    media: 'none',
  });
  async function* pages(): AsyncGenerator<ResoRecord[], ReplicationResult, undefined> {
    await Promise.resolve();
    yield records;
    return result();
  }
  return { pages: pages(), result };
}

async function pulledRows(records: ResoRecord[], policy: DisplayPolicy): Promise<FeedRow[]> {
  const rows: FeedRow[] = [];
  for await (const row of replicatedFeed(fakeRun(records), 'MLSNumber', undefined, undefined, { policy, now: NOW }).rows) rows.push(row);
  return rows;
}

const withheldAt = (spec: PolicySpec): readonly string[] =>
  spec.ruleFrom === undefined || Date.parse(`${spec.ruleFrom}T00:00:00Z`) <= NOW ? spec.withhold : [];

/** Every promise of the display rules about one record's row. */
function checkRow(row: FeedRow, record: ResoRecord, spec: RecordSpec, policy: PolicySpec, mapped: boolean): void {
  const forbidden = spec.entire === false || (spec.canUse !== undefined && !spec.canUse.includes('IDX'));
  if (forbidden) {
    expect(row).toMatchObject({ kind: 'excluded', remove: true });
    return;
  }
  const template = policy.attribution ?? 'Listing courtesy of {ListOfficeName}';
  const needsPhone = template.includes('ListOfficePhone');
  const attributable = spec.office !== undefined && (!needsPhone || spec.phone !== undefined);
  if (!attributable && policy.requireAttribution) {
    expect(row.kind).toBe('rejected');
    return;
  }
  expect(row.kind).toBe('listing');
  const listing = (row as { listing: ListingFields }).listing;
  const payload = JSON.stringify(listing);
  for (const member of RESTRICTED) expect(payload).not.toContain(`SECRET-${member}`);
  for (const member of withheldAt(policy)) expect(payload).not.toContain(`SECRET-${member}`);
  // Not withheld: the leaky mapping does send it, so the checks above could fail.
  if (mapped)
    for (const member of OPTIONAL_SECRETS.filter((m) => !withheldAt(policy).includes(m))) expect(payload).toContain(`SECRET-${member}`);
  expect(listing.Description).toBe(record.PublicRemarks);
  if (spec.address === false) for (const field of ['Address', 'Latitude', 'Longitude'] as const) expect(listing[field]).toBeUndefined();
  else expect(listing.Address).toBe(record.UnparsedAddress);
  if (spec.valuation === false || !mapped) expect(listing.ZestimatePrice).toBeUndefined();
  else expect(listing.ZestimatePrice).toBe(410_000);
  const attribution = listing.ExtensionColumn?.filter((entry) => entry.Key === 'Attribution') ?? [];
  if (!attributable) expect(attribution).toEqual([]);
  else
    expect(attribution).toEqual([
      {
        Key: 'Attribution',
        value: template.replace('{ListOfficeName}', spec.office as string).replace('{ListOfficePhone}', spec.phone ?? ''),
      },
    ]);
}

describe('display rules over random records and policies', () => {
  const scenario = fc.record({ records: fc.array(recordArb, { minLength: 1, maxLength: 6 }), policy: policyArb });

  it('a feed file with a mapping naming every withheld field sends none of them', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ records, policy }) => {
        const source = records.map((spec, index) => resoRecord(index, spec));
        const rows = await fileRows(source, policyOf(policy));
        expect(rows).toHaveLength(source.length);
        rows.forEach((row, index) => checkRow(row, source[index] as ResoRecord, records[index] as RecordSpec, policy, true));
      }),
      { numRuns: 60 },
    );
  });

  it('a replicated pull sends none of them either', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ records, policy }) => {
        const source = records.map((spec, index) => resoRecord(index, spec));
        const rows = await pulledRows(source, policyOf(policy));
        rows.forEach((row, index) => checkRow(row, source[index] as ResoRecord, records[index] as RecordSpec, policy, false));
      }),
      { numRuns: 60 },
    );
  });
});
