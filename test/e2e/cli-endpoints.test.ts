/**
 * Every endpoint command of the built CLI, run as a process against the simulator: what the user
 * sees on stdout (text and --json) and what the service holds afterwards.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SIM_RANDOM_CODE, type RunningSimulator } from '../../src/sim/server.js';
import { sampleListing } from '../../src/sim/sample-listings.js';
import { simEnv, startTestSim } from '../helpers/sim.js';
import { lines, runCli } from '../helpers/run-cli.js';

const BOT = 'bot-e2e';
let sim: RunningSimulator;
let dir: string;
let env: Record<string, string>;

beforeEach(async () => {
  sim = await startTestSim({ chatbots: [BOT], listings: { [BOT]: [1, 2, 3, 4, 5].map((i) => sampleListing(i, { SerialNumber: BOT })) } });
  dir = await mkdtemp(join(tmpdir(), 'ls-cli-'));
  env = simEnv(sim);
});

afterEach(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

async function jsonFile(name: string, value: unknown): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(value));
  return path;
}

function mlsNumbers(): string[] {
  return sim.state
    .listings(BOT)
    .map((listing) => listing.MLSNumber)
    .sort();
}

function parseJson(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('chatbot', () => {
  it('edit --set types the values and changes only those settings', async () => {
    const run = await runCli(
      [
        'chatbot',
        'edit',
        '--chatbot',
        BOT,
        '--set',
        'Temperature=2',
        '--set',
        'ChatBubbleColor=rgb(10, 20, 30)',
        '--set',
        'VerifyDomain=true',
        '--set',
        'Name=Front desk',
      ],
      env,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // Fields are reported in the order of api-spec 2.1.
    expect(run.stdout).toBe(`chatbot ${BOT}: updated Name, Temperature, ChatBubbleColor, VerifyDomain\n`);
    expect(sim.state.chatbotSettings(BOT)).toMatchObject({
      Temperature: 2,
      ChatBubbleColor: 'rgb(10, 20, 30)',
      VerifyDomain: true,
      Name: 'Front desk',
    });
  });

  it('edit --file --json prints one JSON object', async () => {
    const file = await jsonFile('settings.json', { WelcomeMessage: 'Hi!', RateLimitCount: 5, EnableUploadImage: false });
    const run = await runCli(['chatbot', 'edit', '--chatbot', BOT, '--file', file, '--json'], env);
    expect(run.code).toBe(0);
    expect(parseJson(run.stdout)).toEqual({ chatbot: BOT, result: 1, changed: ['EnableUploadImage', 'WelcomeMessage', 'RateLimitCount'] });
    expect(sim.state.chatbotSettings(BOT)).toMatchObject({ WelcomeMessage: 'Hi!', RateLimitCount: 5, EnableUploadImage: false });
  });

  it('knowledge --file sends the knowledge-base edit', async () => {
    const edit = {
      EnableSyncSiteMap: true,
      SyncSiteMapDays: 7,
      SiteMapUrl: 'https://example.test/sitemap.xml',
      qaList: [{ key: 'Pets?', value: 'Yes' }],
    };
    const run = await runCli(['chatbot', 'knowledge', '--chatbot', BOT, '--file', await jsonFile('knowledge.json', edit)], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`chatbot ${BOT}: knowledge base updated\n`);
    expect(sim.state.knowledge(BOT)).toMatchObject(edit);
  });
});

describe('listings list', () => {
  it('prints a table and the count against VirtualCount', async () => {
    const run = await runCli(['listings', 'list', '--chatbot', BOT], env);
    expect(run.code).toBe(0);
    const out = lines(run.stdout);
    expect(out[0]).toMatch(/^ID\s+MLSNumber\s+Status\s+SaleType\s+City\s+Price\s+Url$/);
    expect(out).toHaveLength(7);
    expect(out[1]).toMatch(/ML100001\s+Active\s+\S.*https:\/\/example\.test\/listing\/1$/);
    expect(out[6]).toBe('5 of 5 listings');
  });

  it('filters by city, sale type and MLS number, and pages', async () => {
    const byMls = await runCli(['listings', 'list', '--chatbot', BOT, '--mls', 'ML100003', '--json'], env);
    expect(byMls.code).toBe(0);
    const data = parseJson(byMls.stdout) as {
      virtualCount: number;
      listings: Array<{ id: string; fields: Record<string, unknown> }>;
      items: Array<Record<string, unknown>>;
    };
    expect(data.virtualCount).toBe(1);
    expect(data.listings[0]?.fields).toMatchObject({ MLSNumber: 'ML100003', SaleType: 'for_sale', City: sampleListing(3).City });
    expect(data.items[0]).toMatchObject({ MLSNumber: 'ML100003', City: sampleListing(3).City });

    const rentals = parseJson(
      (await runCli(['listings', 'list', '--chatbot', BOT, '--sale-type', 'for_rent', '--json'], env)).stdout,
    ) as typeof data;
    expect(rentals.listings.map((l) => l.fields.MLSNumber)).toEqual(['ML100002', 'ML100005']);

    const city = sampleListing(1).City ?? '';
    const inCity = parseJson((await runCli(['listings', 'list', '--chatbot', BOT, '--city', city, '--json'], env)).stdout) as typeof data;
    expect(inCity.listings.length).toBeGreaterThan(0);
    expect(inCity.listings.every((l) => l.fields.City === city)).toBe(true);

    const page2 = await runCli(['listings', 'list', '--chatbot', BOT, '--page', '2', '--page-size', '2'], env);
    // One page of more: which page, and how to see the rest (every page, or the next one).
    expect(lines(page2.stdout).slice(-2)).toEqual([
      '2 of 5 listings (page 2 of 3)',
      'see them all with --all, the next page with --page 3 --page-size 2',
    ]);
    expect(page2.stdout).toContain('ML100003');
    expect(page2.stdout).not.toContain('ML100001');
  });

  it('--all reads every page and checks the total', async () => {
    const before = sim.state.callCounts().listListings;
    const run = await runCli(['listings', 'list', '--chatbot', BOT, '--all', '--page-size', '2', '--json'], env);
    expect(run.code).toBe(0);
    const data = parseJson(run.stdout) as { virtualCount: number; count: number; listings: Array<{ fields: Record<string, unknown> }> };
    expect(data.virtualCount).toBe(5);
    expect(data.count).toBe(5);
    expect(data.listings.map((l) => l.fields.MLSNumber)).toEqual(['ML100001', 'ML100002', 'ML100003', 'ML100004', 'ML100005']);
    expect(sim.state.callCounts().listListings - before).toBe(3);
  });
});

describe('listings create / update / delete', () => {
  it('create prints the new id, which is the listing the service now holds', async () => {
    const { SerialNumber: _unused, ...listing } = sampleListing(42);
    const run = await runCli(['listings', 'create', '--chatbot', BOT, '--file', await jsonFile('listing.json', listing)], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const id = run.stdout.trim();
    expect(sim.state.listings(BOT).find((l) => l.MLSNumber === 'ML100042')?.ID).toBe(id);
  });

  it("create takes the file's SerialNumber when --chatbot is absent (--json)", async () => {
    const run = await runCli(
      ['listings', 'create', '--file', await jsonFile('listing.json', sampleListing(43, { SerialNumber: BOT })), '--json'],
      env,
    );
    expect(run.code).toBe(0);
    const out = parseJson(run.stdout);
    expect(out).toMatchObject({ chatbot: BOT, MLSNumber: 'ML100043' });
    expect(sim.state.listings(BOT).find((l) => l.MLSNumber === 'ML100043')?.ID).toBe(out.id);
  });

  it('update by MLSNumber and by NewOaks id prints the records updated', async () => {
    const changed = sampleListing(2, { SerialNumber: BOT, RentPrice: 4321 });
    const run = await runCli(
      ['listings', 'update', '--chatbot', BOT, '--key-type', 'MLSNumber', '--key', 'ML100002', '--file', await jsonFile('l.json', changed)],
      env,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('updated 1 listing\n');
    expect(sim.state.listings(BOT).find((l) => l.MLSNumber === 'ML100002')?.RentPrice).toBe(4321);

    const target = sim.state.listings(BOT).find((l) => l.MLSNumber === 'ML100004');
    const byId = await runCli(
      [
        'listings',
        'update',
        '--chatbot',
        BOT,
        '--key-type',
        'NewOaks',
        '--key',
        target?.ID ?? '?',
        '--file',
        await jsonFile('m.json', sampleListing(4, { Status: 'Sold' })),
        '--json',
      ],
      env,
    );
    expect(parseJson(byId.stdout)).toEqual({ chatbot: BOT, key: target?.ID, keyType: 'NewOaks', updated: 1 });
    expect(sim.state.listings(BOT).find((l) => l.MLSNumber === 'ML100004')?.Status).toBe('Sold');
  });

  it('update that matches nothing exits 1 and says so', async () => {
    const run = await runCli(
      [
        'listings',
        'update',
        '--chatbot',
        BOT,
        '--key-type',
        'MLSNumber',
        '--key',
        'NOPE-1',
        '--file',
        await jsonFile('l.json', sampleListing(9)),
      ],
      env,
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(lines(run.stderr)).toEqual([`listing-sync: no listing matched MLSNumber 'NOPE-1' in chatbot ${BOT}: nothing was updated`]);
  });

  it('delete removes the keys and prints SuccessCount', async () => {
    const run = await runCli(['listings', 'delete', '--chatbot', BOT, '--key-type', 'MLSNumber', 'ML100001', 'ML100003'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('deleted 2 of 2 listings\n');
    expect(mlsNumbers()).toEqual(['ML100002', 'ML100004', 'ML100005']);

    const json = await runCli(
      [
        'listings',
        'delete',
        '--chatbot',
        BOT,
        '--key-type',
        'URL',
        'https://example.test/listing/2',
        'https://example.test/listing/77',
        '--json',
      ],
      env,
    );
    expect(parseJson(json.stdout)).toEqual({ chatbot: BOT, keyType: 'URL', requested: 2, successCount: 1 });
    expect(mlsNumbers()).toEqual(['ML100004', 'ML100005']);
  });
});

describe('tables', () => {
  it('prints every table with its field names, and --json', async () => {
    const run = await runCli(['tables', '--random-code', DEFAULT_SIM_RANDOM_CODE], env);
    expect(run.code).toBe(0);
    const expected = sim.state.tables(DEFAULT_SIM_RANDOM_CODE);
    expect(expected.length).toBeGreaterThan(0);
    for (const table of expected) {
      expect(run.stdout).toContain(
        `${table.TableName} (${table.TableDisplayName}, id ${table.ID}): ${table.FieldDefinitions.map((f) => f.FieldName).join(', ')}`,
      );
    }
    const json = await runCli(['tables', '--random-code', DEFAULT_SIM_RANDOM_CODE, '--json'], env);
    expect(parseJson(json.stdout)).toEqual({ randomCode: DEFAULT_SIM_RANDOM_CODE, tables: expected });
  });
});

describe('failures from the service or the wire', () => {
  it('an envelope failure prints its Code and Message in one line and exits 1', async () => {
    sim.state.setFaults({ envelopeFailureRate: 1, seed: 1 });
    const run = await runCli(['listings', 'list', '--chatbot', BOT, '--json'], env);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const err = lines(run.stderr);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^listing-sync: listListings: .*500.*Internal error, try again/);
  });

  it('a rejected credential and an unreachable service each say what went wrong', async () => {
    const rejected = await runCli(['tables', '--random-code', DEFAULT_SIM_RANDOM_CODE], {
      ...env,
      PROJECT_AUTH_TOKEN: 'wrong-token-value',
    });
    expect(rejected.code).toBe(1);
    expect(lines(rejected.stderr)).toHaveLength(1);
    // The line names the setting to fix, never the value that was sent.
    expect(rejected.stderr).toMatch(/listTables: credential rejected .*: check PROJECT_AUTH_TOKEN$/m);
    expect(rejected.stderr).not.toContain('wrong-token-value');

    const session = await runCli(['listings', 'list', '--chatbot', BOT], { ...env, API_SESSION_KEY: 'wrong-session-value' });
    expect(session.code).toBe(1);
    expect(session.stderr).toMatch(/listListings: credential rejected .*: check API_SESSION_KEY$/m);
    expect(session.stderr).not.toContain('wrong-session-value');

    const closed = await startTestSim();
    const deadUrl = closed.baseUrl;
    await closed.close();
    const unreachable = await runCli(['listings', 'list', '--chatbot', BOT], { ...env, API_BASE_URL: deadUrl });
    expect(unreachable.code).toBe(1);
    expect(lines(unreachable.stderr)).toHaveLength(1);
    expect(unreachable.stderr).toMatch(/^listing-sync: listListings: /);
    // Where it tried and which setting says so.
    expect(unreachable.stderr).toContain(`could not connect to ${deadUrl} (ECONNREFUSED): check API_BASE_URL`);
  });
});
