/**
 * The manual cannot drift from the CLI: every `listing-sync` command in a shell example of
 * README.md and docs/*.md (however it is spelled: `npx listing-sync`, `npm run cli --`,
 * `node dist/cli/listing-sync.cjs`, `npm run demo`) must exist, as a command and subcommand, with
 * every flag it names listed by the built CLI's own `--help`. And docs/configuration.md must name
 * every flag of every command and every setting. What the commands do is covered by the other e2e
 * tests; the README's three uses are run as written by readme-recipes.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SETTING_NAMES } from '../../src/config/config.js';
import { docInvocations, helpReader, invocationProblems } from '../helpers/doc-commands.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const docFiles = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];
const invocations = docFiles.flatMap((file) => docInvocations(readFileSync(join(root, file), 'utf8'), file));
const help = helpReader();

/** Every runnable command path (`['runs', 'show']`), from the CLI's help tree. */
async function leafCommands(path: string[] = []): Promise<string[][]> {
  const page = await help(path);
  if (page.subcommands.length === 0) return [path];
  const below = await Promise.all(page.subcommands.map((name) => leafCommands([...path, name])));
  return below.flat();
}

describe('the shell examples of README.md and docs/', () => {
  it('show commands at all, in the README and in the manual', () => {
    expect(invocations.filter((i) => i.where.startsWith('README.md')).length).toBeGreaterThanOrEqual(15);
    expect(invocations.filter((i) => i.where.startsWith('docs/')).length).toBeGreaterThanOrEqual(25);
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    for (const command of ['npm ci', 'npm run demo', 'npm test']) expect(readme).toContain(command);
  });

  it.each(invocations.map((i) => [`${i.where}: ${i.line}`, i] as const))(
    '%s',
    async (_name, invocation) => {
      expect(await invocationProblems(invocation.args, help), `${invocation.where}: ${invocation.line}`).toEqual([]);
    },
    30_000,
  );
});

describe('the check itself', () => {
  it('finds every spelling of the CLI, and fails on a missing flag, command or subcommand', async () => {
    const doc = [
      '```console',
      '$ npx listing-sync runs list --chatbot bot-1',
      '```',
      '```bash',
      'npm run -s cli -- sync --chatbot x --feed f.csv \\',
      '  --no-such-flag   # a comment with --another',
      'node dist/cli/listing-sync.cjs sink --feed x',
      'listing-sync runs',
      'npm run demo -- --exit-after-sync',
      '```',
      '```json',
      '{ "not": "listing-sync sync --ignored" }',
      '```',
    ].join('\n');
    const found = docInvocations(doc, 'example.md');
    expect(found.map((i) => [i.where, i.args.join(' ')])).toEqual([
      ['example.md:2', 'runs list --chatbot bot-1'],
      ['example.md:5', 'sync --chatbot x --feed f.csv --no-such-flag'],
      ['example.md:7', 'sink --feed x'],
      ['example.md:8', 'runs'],
      ['example.md:9', 'demo --exit-after-sync'],
    ]);
    const problems = await Promise.all(found.map((i) => invocationProblems(i.args, help)));
    expect(problems[0]).toEqual([]);
    expect(problems[1]).toEqual([expect.stringMatching(/^--no-such-flag is not a flag of 'listing-sync sync'/)]);
    expect(problems[2]).toEqual([expect.stringMatching(/^'sink' is not a command of 'listing-sync'/)]);
    expect(problems[3]).toEqual([expect.stringMatching(/^'listing-sync runs' needs a command \(one of list, show/)]);
    expect(problems[4]).toEqual([]);
  }, 30_000);
});

describe('docs/configuration.md', () => {
  const page = readFileSync(join(root, 'docs/configuration.md'), 'utf8');

  it('names every flag of every command under that command', async () => {
    const missing: string[] = [];
    for (const path of await leafCommands()) {
      const heading = `### \`${path.join(' ')}\``;
      const start = page.indexOf(heading);
      if (start < 0) {
        missing.push(`no section '${heading}'`);
        continue;
      }
      const end = page.indexOf('\n### ', start + heading.length);
      const section = page.slice(start, end < 0 ? undefined : end);
      for (const flag of (await help(path)).flags) {
        if (flag.startsWith('--') && flag !== '--help' && !section.includes(`\`${flag}`)) missing.push(`${path.join(' ')} ${flag}`);
      }
    }
    expect(missing, 'docs/configuration.md lacks these flags: run `npm run build`, then `npx tsx scripts/docs-flag-reference.ts`').toEqual(
      [],
    );
  }, 60_000);

  it('names every setting', () => {
    expect(SETTING_NAMES.filter((name) => !page.includes(`\`${name}\``))).toEqual([]);
  });
});
