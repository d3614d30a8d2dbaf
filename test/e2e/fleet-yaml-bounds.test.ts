/**
 * fleet.yaml's aliases through the built CLI against a real Redis: a "billion laughs" file and a
 * 100 KB file whose 99 aliases would expand it to megabytes are each refused with exit 2 and the
 * problem at its line and column (no stack trace), and nothing reaches Redis.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { lines, runCli } from '../helpers/run-cli.js';

const redisUrl = inject('redisUrl');
const prefix = uniquePrefix('fleet-yaml-bounds');
const env = { REDIS_URL: redisUrl, LISTING_SYNC_PREFIX: prefix, LOG_LEVEL: 'warn' };
let dir = '';

beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), 'ls-fleet-yaml-'))));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await cleanPrefix(redisUrl, prefix);
});

function billionLaughs(): string {
  const out = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let level = 1; level < 10; level++) {
    const previous = String.fromCharCode(96 + level);
    const name = String.fromCharCode(97 + level);
    out.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
  }
  return `${out.join('\n')}\n`;
}

/** About 100 KB: one large note, repeated by 99 chatbots through an alias (about 9.5 MB expanded). */
function ninetyNineAliases(): string {
  const chatbots = Array.from({ length: 99 }, (_, i) => `  bot-${i}: { source: mred, note: *note }`).join('\n');
  return `sources:\n  mred: { feed: https://mls.example/odata/Property, profile: reso }\nnote: &note "${'n'.repeat(95_000)}"\nchatbots:\n${chatbots}\n`;
}

async function keysUnderPrefix(): Promise<string[]> {
  const client = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const found: string[] = [];
    for await (const keys of client.scanStream({ match: `${prefix}*`, count: 1000 })) found.push(...(keys as string[]));
    return found;
  } finally {
    client.disconnect();
  }
}

const EXPANDS =
  "YAML: aliases expand the document to more than 10 times the file's size; write the repeated values out, or use fewer aliases";

describe('fleet.yaml aliases through the CLI', () => {
  it.each([
    ['a billion laughs', 'laughs.yaml', billionLaughs(), '6:8'],
    ['a 100 KB file with 99 aliases', 'aliases.yaml', ninetyNineAliases(), '5:32'],
  ])('%s: exit 2, the problem at its line and column, nothing in Redis', async (_what, name, text, at) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    for (const command of ['diff', 'apply']) {
      const run = await runCli(['fleet', command, path], env);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stdout).toBe('');
      expect(lines(run.stderr)).toEqual([`listing-sync: ${path} has a problem; nothing was changed:`, `  ${path}:${at}: ${EXPANDS}`]);
    }
    expect(await keysUnderPrefix()).toEqual([]);
  });
});
