/**
 * Golden files: the payloads a small RESO feed (fixtures/display/feed.ndjson, read with a mapping
 * that names withheld fields) gives under the default display policy and under a strict one. A
 * change to what reaches the service shows as a diff of fixtures/display/payloads-*.json; rewrite
 * them with UPDATE_GOLDEN=1 once the change is meant.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { DisplayPolicy } from '../../src/domain/display-policy/policy.js';
import { openFeedInThisThread } from '../../src/feed/open-feed.js';
import { parseDisplayPolicyText } from '../../src/fleet/display-policy-yaml.js';

const DIR = 'fixtures/display';
const NOW = Date.parse('2027-02-01T00:00:00Z');

async function payloads(policy: DisplayPolicy | undefined): Promise<unknown> {
  const feed = await openFeedInThisThread({
    source: `${DIR}/feed.ndjson`,
    profile: 'reso',
    mapping: `${DIR}/mapping.json`,
    keyType: 'MLSNumber',
    display: policy === undefined ? { now: NOW } : { policy, now: NOW },
  });
  const rows: unknown[] = [];
  for await (const row of feed.rows)
    rows.push(
      row.kind === 'listing'
        ? { key: row.key, payload: row.listing }
        : { key: row.kind === 'rejected' ? row.key : row.key, [row.kind]: row.reason },
    );
  return { rows, display: feed.stats().display };
}

async function golden(name: string, actual: unknown): Promise<void> {
  const path = `${DIR}/${name}`;
  const text = `${JSON.stringify(actual, null, 2)}\n`;
  if (process.env.UPDATE_GOLDEN === '1') await writeFile(path, text);
  expect(text).toBe(await readFile(path, 'utf8'));
}

describe('display golden payloads', () => {
  it('under the default policy', async () => {
    await golden('payloads-default.json', await payloads(undefined));
  });

  it('under a strict policy (fixtures/display/strict-policy.yaml), its dated rule in force', async () => {
    const { policy, problems } = parseDisplayPolicyText(await readFile(`${DIR}/strict-policy.yaml`, 'utf8'));
    expect(problems).toEqual([]);
    await golden('payloads-strict.json', await payloads(policy));
  });
});
