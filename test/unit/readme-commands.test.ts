/**
 * Every `listing-sync …` command the README shows must exist, with every flag it uses: the README
 * cannot rot silently. (What the commands do is covered by the e2e tests; npm ci / npm run demo /
 * npm test are run by .ci/run and test/e2e/demo.test.ts.)
 */
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { createReleaseStack } from '../../src/cli/wiring/release-stack.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

function shellLines(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  return blocks
    .flatMap((block) => block.split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line.length > 0 && !line.startsWith('#'));
}

function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '');
}

const program = buildProgram(
  { env: {}, stdout: new PassThrough(), stderr: new PassThrough(), onShutdown: () => {}, releases: createReleaseStack() },
  () => {},
);

function resolve(args: string[]): { command: Command; rest: string[] } {
  let command: Command = program;
  let rest = args;
  for (;;) {
    const next = command.commands.find((c) => c.name() === rest[0]);
    if (!next) return { command, rest };
    command = next;
    rest = rest.slice(1);
  }
}

const commandLines = shellLines(readme).filter((line) => /^(npx )?listing-sync /.test(line));

describe('README commands', () => {
  it('shows commands at all', () => {
    expect(commandLines.length).toBeGreaterThan(10);
    expect(readme).toContain('npm ci');
    expect(readme).toContain('npm run demo');
    expect(readme).toContain('npm test');
  });

  it.each(commandLines)('%s', (line) => {
    const args = words(line).slice(line.startsWith('npx ') ? 2 : 1);
    const { command, rest } = resolve(args);
    expect(command, `unknown command in: ${line}`).not.toBe(program);
    expect(command.commands.length, `${line} names a command group, not a command`).toBe(0);
    const known = new Set(command.options.flatMap((o) => [o.long, o.short].filter((f): f is string => f !== undefined)));
    for (const flag of rest.filter((w) => w.startsWith('--')))
      expect(known, `${flag} is not an option of '${command.name()}' (in: ${line})`).toContain(flag.split('=')[0]);
  });
});
