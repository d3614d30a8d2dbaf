/**
 * Input errors of a feed as a user meets them (the built CLI, `sync --dry-run`, exit 2, nothing
 * read from the service): a mapping file's JSON error at its line and column, a misspelt mapping
 * field with a did-you-mean, a CSV whose required column was renamed as ONE line about the header.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const FEED = join(resolve(import.meta.dirname, '../../fixtures/sync'), 'dry-run.csv');
// Nothing listens there: a check that reached the service would fail differently.
const ENV = { API_BASE_URL: 'http://127.0.0.1:9', API_SESSION_KEY: 'session-key-1' };
let dir = '';

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'feed-input-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function dryRun(extra: string[], feed = FEED): Promise<{ code: number | null; lines: string[] }> {
  const run = await runCli(['sync', '--chatbot', 'bot-input', '--feed', feed, '--dry-run', ...extra], ENV);
  return { code: run.code, lines: run.stderr.trim().split('\n') };
}

describe('feed input errors', () => {
  it("a mapping file's JSON error gives line and column, not a character position", async () => {
    const mapping = join(dir, 'mapping.json');
    await writeFile(mapping, '{\n  "profile": "native",\n  "columns": {\n    "Bedrooms": "Beds",\n  }\n}\n');
    const run = await dryRun(['--mapping', mapping]);
    expect(run.code).toBe(2);
    expect(run.lines.join('\n')).toMatch(/not valid JSON: .* at line 5, column 3/);
    expect(run.lines.join('\n')).not.toMatch(/position \d+/);
  });

  it('a misspelt mapping field gets a did-you-mean', async () => {
    const mapping = join(dir, 'mapping.json');
    await writeFile(mapping, JSON.stringify({ profile: 'native', constants: { Descripton: 'x' } }));
    const run = await dryRun(['--mapping', mapping]);
    expect(run.code).toBe(2);
    expect(run.lines.join('\n')).toMatch(/'Descripton' is not a listing field \(did you mean Description/);
  });

  it('a CSV whose required column was renamed is one line about the header', async () => {
    const renamed = join(dir, 'renamed.csv');
    const text = await readFile(FEED, 'utf8');
    await writeFile(renamed, text.replace(/^(.*?),Bedrooms,/, '$1,Beds,'));
    const run = await dryRun([], renamed);
    expect(run.code).toBe(2);
    expect(run.lines).toHaveLength(1);
    expect(run.lines[0]).toMatch(/the header has no column for the required field Bedrooms, so every row would be rejected/);
    expect(run.lines[0]).toContain("'Beds'");
  });
});
