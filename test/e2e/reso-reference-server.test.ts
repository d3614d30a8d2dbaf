/**
 * Opt-in: `sync --replicate` against a running RESO reference server (RESOStandards/reso-tools'
 * reso-reference-server, seeded by its own data generator; docs/replication.md "Tested against"
 * says how to run one). Set RESO_REFERENCE_URL to its Property resource, e.g.
 * RESO_REFERENCE_URL=http://127.0.0.1:18080/Property. Without it the test is skipped: nothing
 * here can pass against a server that is not there.
 *
 * What it checks is what broke against that server: a full pull and a sweep receive every record
 * it counts ($count), and a sweep deletes nothing that is still on the server.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { simEnv, startTestSim } from '../helpers/sim.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';

const feed = process.env.RESO_REFERENCE_URL;
const BOT = 'bot-reference';

async function countOf(url: string): Promise<number> {
  const answer = await request(`${url}?$count=true&$top=0`, { headers: { accept: 'application/json' } });
  return ((await answer.body.json()) as { '@odata.count': number })['@odata.count'];
}

describe.skipIf(feed === undefined)('against the RESO reference server (RESO_REFERENCE_URL)', () => {
  it('a full pull and a sweep receive every counted record and delete nothing still on the server', async () => {
    const url = feed ?? '';
    const total = await countOf(url);
    const sim = await startTestSim({ chatbots: [BOT] });
    const prefix = uniquePrefix('reso-reference');
    try {
      const dir = mkdtempSync(join(tmpdir(), 'reso-reference-'));
      const mapping = join(dir, 'mapping.json');
      // Its generator leaves ListingId and ListingURL empty on many records.
      writeFileSync(
        mapping,
        JSON.stringify({ columns: { MLSNumber: 'ListingKey' }, templates: { Url: 'https://homes.example/l/{ListingKey}' } }),
      );
      const env = {
        ...simEnv(sim),
        REDIS_URL: inject('redisUrl'),
        LISTING_SYNC_PREFIX: prefix,
        FEED_OAUTH_TOKEN_URL: new URL('/oauth/token', url).href,
        FEED_OAUTH_CLIENT_ID: 'listing-sync-test',
        FEED_OAUTH_CLIENT_SECRET: 'listing-sync-test-secret',
      };
      const args = ['sync', '--chatbot', BOT, '--feed', url, '--profile', 'reso', '--replicate', '--mapping', mapping, '--json'];
      const run = await runCli([...args, '--sweep', '--work'], env, 600_000);
      expect(run.code, run.stderr).toBe(0);
      const out = jsonOf<{ replication: { status: string; recordsPulled: number; sweep: { complete: boolean; deleted: number } } }>(run);
      expect(out.replication).toMatchObject({ status: 'done', recordsPulled: total, sweep: { complete: true, deleted: 0 } });
      const again = await runCli([...args, '--sweep', '--work'], env, 600_000);
      expect(again.code, again.stderr).toBe(0);
      expect(jsonOf<{ plan: { delete: number } }>(again).plan.delete).toBe(0);
    } finally {
      await sim.close();
      await cleanPrefix(inject('redisUrl'), prefix);
    }
  });
});
