/**
 * Bad input to the built CLI: each case gets exactly one line on stderr saying what is wrong and
 * how to fix it, exit code 2, nothing on stdout, and not a single request reaches the service.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/server.js';
import { sampleListing } from '../../src/sim/sample-listings.js';
import { simEnv, startTestSim } from '../helpers/sim.js';
import { lines, runCli } from '../helpers/run-cli.js';

const BOT = 'bot-bad';
let sim: RunningSimulator;
let dir: string;

beforeEach(async () => {
  sim = await startTestSim({ chatbots: [BOT], listings: { [BOT]: [sampleListing(1, { SerialNumber: BOT })] } });
  dir = await mkdtemp(join(tmpdir(), 'ls-bad-'));
});

afterEach(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, content: string | object): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

function requestsSeen(): number {
  return Object.values(sim.state.callCounts()).reduce((sum, n) => sum + n, 0) + sim.state.calls().length;
}

/** Runs the CLI and checks the contract for bad input; returns the one stderr line. */
async function rejects(args: string[], env: Record<string, string> = simEnv(sim)): Promise<string> {
  const run = await runCli(args, env);
  const err = lines(run.stderr);
  expect(err, run.stderr).toHaveLength(1);
  expect(run.code, run.stderr).toBe(2);
  expect(run.stdout).toBe('');
  expect(requestsSeen()).toBe(0);
  return err[0] ?? '';
}

function without(name: string): Record<string, string> {
  const { [name]: _dropped, ...rest } = simEnv(sim);
  return rest;
}

it('a missing credential names the env var to set', async () => {
  expect(await rejects(['chatbot', 'edit', '--chatbot', BOT, '--set', 'Name=x'], without('API_SECRET_KEY'))).toBe(
    'listing-sync: editChatbot: no credential for this endpoint: set API_SECRET_KEY',
  );
  expect(await rejects(['listings', 'list', '--chatbot', BOT], without('API_SESSION_KEY'))).toMatch(/set API_SESSION_KEY$/);
  expect(await rejects(['tables', '--random-code', 'x'], without('PROJECT_AUTH_TOKEN'))).toMatch(/set PROJECT_AUTH_TOKEN$/);
  const { API_SECRET_KEY: _a, API_SESSION_KEY: _b, ...neither } = simEnv(sim);
  expect(await rejects(['listings', 'delete', '--chatbot', BOT, '--key-type', 'MLSNumber', 'ML100001'], neither)).toMatch(
    /set API_SECRET_KEY or API_SESSION_KEY$/,
  );
});

it('a missing API_BASE_URL names the env var and the flag', async () => {
  const line = await rejects(['listings', 'list', '--chatbot', BOT], without('API_BASE_URL'));
  expect(line).toMatch(/^listing-sync: API_BASE_URL is not set: set it in the environment or pass --api-base-url/);
});

it('an unknown field suggests the nearest valid names', async () => {
  expect(await rejects(['chatbot', 'edit', '--chatbot', BOT, '--set', 'Colour=rgb(1,2,3)'])).toBe(
    "listing-sync: unknown field 'Colour' (did you mean ChatBubbleColor or UserMessageColor?)",
  );
  const settings = await file('settings.json', { Temprature: 1 });
  expect(await rejects(['chatbot', 'edit', '--chatbot', BOT, '--file', settings])).toBe(
    `listing-sync: ${settings}: unknown field 'Temprature' (did you mean Temperature?)`,
  );
});

it('a wrong type says which field wants what', async () => {
  expect(await rejects(['chatbot', 'edit', '--chatbot', BOT, '--set', 'Temperature=hot'])).toBe(
    'listing-sync: --set Temperature=hot: Temperature must be a whole number (e.g. --set Temperature=1)',
  );
  expect(await rejects(['chatbot', 'edit', '--chatbot', BOT, '--set', 'VerifyDomain=yes'])).toBe(
    'listing-sync: --set VerifyDomain=yes: VerifyDomain must be true or false',
  );
  const settings = await file('settings.json', { Temperature: '2' });
  expect(await rejects(['chatbot', 'edit', '--chatbot', BOT, '--file', settings])).toBe(
    `listing-sync: ${settings}: Temperature must be a number (got "2")`,
  );
  const listing = await file('listing.json', { ...sampleListing(7, { SerialNumber: BOT }), Bedrooms: 'three', SaleType: 'sale' });
  expect(await rejects(['listings', 'create', '--file', listing])).toBe(
    `listing-sync: ${listing}: SaleType must be one of "for_sale", "for_rent" (got "sale"); Bedrooms must be a number (got "three")`,
  );
});

it('a malformed JSON file names the path and the position', async () => {
  const broken = await file('broken.json', '{\n  "Name": "x",\n}\n');
  expect(await rejects(['chatbot', 'edit', '--chatbot', BOT, '--file', broken])).toMatch(
    new RegExp(`^listing-sync: ${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON: .+ at line 3, column 1$`),
  );
  expect(await rejects(['listings', 'create', '--chatbot', BOT, '--file', join(dir, 'missing.json')])).toBe(
    `listing-sync: cannot read ${join(dir, 'missing.json')}: no such file`,
  );
});

it('a bad colour shows the form it wants', async () => {
  expect(await rejects(['chatbot', 'edit', '--chatbot', BOT, '--set', 'ChatBubbleColor=blue'])).toBe(
    'listing-sync: --set: ChatBubbleColor must be a colour of the form rgb(r,g,b) with each part 0-255 (got "blue")',
  );
  expect(await rejects(['chatbot', 'edit', '--chatbot', BOT, '--set', 'UserMessageColor=rgb(300,0,0)'])).toContain(
    'UserMessageColor must be a colour of the form rgb(r,g,b)',
  );
});

it('a bad or missing SyncSiteMapDays explains rule 4.4.1', async () => {
  const missing = await file('k1.json', { EnableSyncSiteMap: true });
  expect(await rejects(['chatbot', 'knowledge', '--chatbot', BOT, '--file', missing])).toBe(
    `listing-sync: ${missing}: SyncSiteMapDays is required when EnableSyncSiteMap is true (one of 30, 7, 1)`,
  );
  const wrong = await file('k2.json', { EnableSyncSiteMap: true, SyncSiteMapDays: 14 });
  expect(await rejects(['chatbot', 'knowledge', '--chatbot', BOT, '--file', wrong])).toBe(
    `listing-sync: ${wrong}: SyncSiteMapDays must be one of 30, 7, 1 (got 14)`,
  );
});

it('a bad --key-type or --sale-type lists the allowed values', async () => {
  expect(await rejects(['listings', 'delete', '--chatbot', BOT, '--key-type', 'Id', 'ML100001'])).toBe(
    "listing-sync: --key-type must be one of NewOaks, MLSNumber, URL (got 'Id')",
  );
  const listing = await file('l.json', sampleListing(1));
  expect(await rejects(['listings', 'update', '--chatbot', BOT, '--key', 'ML100001', '--key-type', 'mls', '--file', listing])).toBe(
    "listing-sync: --key-type must be one of NewOaks, MLSNumber, URL (got 'mls')",
  );
  expect(await rejects(['listings', 'list', '--chatbot', BOT, '--sale-type', 'sale'])).toBe(
    "listing-sync: --sale-type must be one of for_sale, for_rent (got 'sale')",
  );
});

it('an --allow-wipe that names no listing field lists the fields; a bad --max-wipes shows the forms it takes', async () => {
  const feed = await file('feed.csv', 'MLSNumber\nML1\n');
  expect(await rejects(['sync', '--chatbot', BOT, '--feed', feed, '--allow-wipe', 'SalePrice,Price', '--allow-wipe', 'Beds'])).toBe(
    'listing-sync: --allow-wipe names no listing field: Price, Beds; the fields are SaleType, Status, CurrencySymbol, PropertyType, Bedrooms, Bathrooms, Url, MLSNumber, YearBuilt, DaysOnMarket, LotArea, BuildingArea, AreaUnit, Images, Tours, ParkingSpots, Description, ExtensionColumn, Location, Address, City, State, ZIP, Latitude, Longitude, SalePrice, UnitAreaPrice, HOAMonth, ZestimatePrice, RentPrice, SpaceType, DepositFee',
  );
  expect(await rejects(['sync', '--chatbot', BOT, '--feed', feed, '--max-wipes', 'many'])).toBe(
    "listing-sync: --max-wipes must be a whole number of listings (e.g. 25) or a percentage from 0% to 100% (e.g. 10%) (got 'many')",
  );
});

it('a value with a space in it names the flag and the forms it takes, for every numeric or percent flag', async () => {
  const feed = await file('feed.csv', 'MLSNumber\nML1\n');
  const sync = ['sync', '--chatbot', BOT, '--feed', feed];
  expect(await rejects([...sync, '--max-deletes', '10', 'percent'])).toBe(
    "listing-sync: --max-deletes takes one word, but got '10 percent': write --max-deletes 10% or --max-deletes 10",
  );
  expect(await rejects([...sync, '--max-deletes=10', 'percent'])).toBe(
    "listing-sync: --max-deletes takes one word, but got '10 percent': write --max-deletes 10% or --max-deletes 10",
  );
  expect(await rejects([...sync, '--max-wipes', '25', '%'])).toBe(
    "listing-sync: --max-wipes takes one word, but got '25 %': write --max-wipes 10% or --max-wipes 10",
  );
  expect(await rejects([...sync, '--max-rejected', '5', 'percent'])).toBe(
    "listing-sync: --max-rejected takes one word, but got '5 percent': write --max-rejected 5%",
  );
  expect(await rejects([...sync, '--work', '--timeout', '2', 'hours'])).toBe(
    "listing-sync: --timeout takes one word, but got '2 hours': write --timeout 20m or --timeout 90s",
  );
  expect(await rejects(['listings', 'list', '--chatbot', BOT, '--page-size', '5', '0'])).toBe(
    "listing-sync: --page-size takes one word, but got '5 0': write --page-size 10",
  );
  expect(await rejects(['listings', 'list', '--chatbot', 'my', 'bot'])).toBe(
    "listing-sync: --chatbot takes one value, but got 'my bot': put quotes around a value with spaces (--chatbot 'my bot')",
  );
  expect(await rejects(['runs', 'show', 'run-1', 'run-2'])).toBe(
    "listing-sync: 'run-2' is one word too many: runs show takes 1 argument; see listing-sync runs show --help",
  );
});

it('a missing --chatbot and a bad page number say which flag', async () => {
  expect(await rejects(['listings', 'list'])).toBe("listing-sync: --chatbot is required (the chatbot's serial number)");
  expect(await rejects(['listings', 'list', '--chatbot', BOT, '--page-size', '0'])).toBe(
    "listing-sync: --page-size must be a whole number of at least 1 (got '0')",
  );
});

it('bad configuration is reported as one block listing every problem', async () => {
  const run = await runCli(['listings', 'list', '--chatbot', BOT], {
    ...simEnv(sim),
    LISTING_SYNC_CONCURRENCY: '0',
    REDIS_URL: 'localhost:6379',
  });
  expect(run.code).toBe(2);
  expect(lines(run.stderr)).toEqual([
    'listing-sync: invalid configuration:',
    "  REDIS_URL: must be a redis:// or rediss:// URL (got 'localhost:6379')",
    "  LISTING_SYNC_CONCURRENCY: must be a whole number from 1 to 256 (got '0')",
  ]);
  expect(requestsSeen()).toBe(0);
});

it('a Redfin export synced without --profile redfin is told to add it', async () => {
  const feed = fileURLToPath(new URL('../../fixtures/feeds/redfin.csv', import.meta.url));
  const line = await rejects(['sync', '--chatbot', BOT, '--feed', feed, '--dry-run']);
  expect(line).toMatch(/no column holds the key MLSNumber .* under profile native/);
  expect(line).toMatch(/Its header is a Redfin export's: add --profile redfin\.$/);
});
