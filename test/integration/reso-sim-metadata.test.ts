/**
 * The RESO simulator's `$metadata` modes over real HTTP: Property's key and stamp under the
 * server's own names (declared in `$metadata`, served on records, and the Data Dictionary names
 * refused as unknown properties), a server without `$metadata` (404 or 501), and a Lookup entity
 * set that is declared and served only when configured.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startResoSimulator, type ResoSimOptions, type RunningResoSimulator } from '../../src/sim/reso/server.js';

let sims: RunningResoSimulator[] = [];
afterEach(async () => {
  await Promise.all(sims.map((s) => s.close()));
  sims = [];
});

async function sim(
  options: ResoSimOptions,
): Promise<{ s: RunningResoSimulator; get: (path: string) => Promise<{ status: number; text: string }> }> {
  const s = await startResoSimulator({ port: 0, ...options });
  sims.push(s);
  const basic = Buffer.from(`${s.credentials.clientId}:${s.credentials.clientSecret}`).toString('base64');
  const token = await request(s.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
    body: 'grant_type=client_credentials',
  });
  const { access_token: accessToken } = (await token.body.json()) as { access_token: string };
  const get = async (path: string): Promise<{ status: number; text: string }> => {
    const answer = await request(`${s.serviceUrl}/${path}`, { headers: { authorization: `Bearer ${accessToken}` } });
    return { status: answer.statusCode, text: await answer.body.text() };
  };
  return { s, get };
}

describe('the RESO simulator $metadata modes', () => {
  it('declares, serves and filters by a key and stamp of its own names, and refuses the Data Dictionary names', async () => {
    const { s, get } = await sim({ fieldNames: { key: 'ListingNumber', timestamp: 'ListingModificationTimestamp' } });
    s.state.records.seed({ count: 3, status: 'Active', photos: 0 });
    const metadata = await get('$metadata');
    expect(metadata.text).toContain('<EntityType Name="Property"><Key><PropertyRef Name="ListingNumber"/></Key>');
    expect(metadata.text).toContain('<Property Name="ListingModificationTimestamp" Type="Edm.DateTimeOffset"/>');
    expect(metadata.text).not.toContain('Name="ListingKey"');
    const [first = ''] = s.state.records.list().map((record) => record.property.ListingKey);
    const page = await get(
      `Property?$orderby=ListingModificationTimestamp,ListingNumber&$filter=${encodeURIComponent(`ListingNumber gt '${first}'`)}&$select=ListingNumber,ListingModificationTimestamp`,
    );
    expect(page.status).toBe(200);
    const rows = (JSON.parse(page.text) as { value: Array<Record<string, unknown>> }).value;
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => Object.keys(row).join() === 'ListingNumber,ListingModificationTimestamp')).toBe(true);
    const refused = await get('Property?$orderby=ModificationTimestamp,ListingKey');
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("no property 'ModificationTimestamp'");
  });

  it.each([404, 501] as const)('answers $metadata with %i when it publishes none', async (status) => {
    const { get } = await sim({ noMetadata: status });
    expect((await get('$metadata')).status).toBe(status);
    expect((await get('Property')).status).toBe(200);
  });

  it('declares and serves the Lookup entity set only when it has lookups', async () => {
    const lookups = [{ LookupName: 'FeeFrequency', LookupValue: 'Every Month', StandardLookupValue: 'Monthly' }];
    const { get } = await sim({ lookups });
    expect((await get('$metadata')).text).toContain('<EntitySet Name="Lookup" EntityType="org.reso.metadata.Lookup"/>');
    const page = JSON.parse((await get('Lookup?$count=true&$orderby=LookupKey')).text) as { '@odata.count': number; value: unknown[] };
    expect(page).toMatchObject({ '@odata.count': 1, value: [{ LookupKey: 'LK000001', ...lookups[0] }] });
    const plain = await sim({});
    expect((await plain.get('$metadata')).text).not.toContain('<EntitySet Name="Lookup"');
    expect((await plain.get('Lookup')).status).toBe(404);
  });
});
