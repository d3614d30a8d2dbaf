/**
 * Every example in the help (src/cli/output/help-examples.ts) names a real command and only flags that
 * command has, and every command has at least one: the help cannot rot silently.
 */
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { HELP_EXAMPLES, examplesText } from '../../src/cli/output/help-examples.js';
import { buildProgram } from '../../src/cli/program.js';
import { createReleaseStack } from '../../src/cli/wiring/release-stack.js';

const program = buildProgram(
  { env: {}, stdout: new PassThrough(), stderr: new PassThrough(), onShutdown: () => {}, releases: createReleaseStack() },
  () => {},
);

function leaves(command: Command, path: string[] = []): Array<{ path: string; command: Command }> {
  return command.commands.flatMap((sub) =>
    sub.commands.length === 0 ? [{ path: [...path, sub.name()].join(' '), command: sub }] : leaves(sub, [...path, sub.name()]),
  );
}

const words = (line: string): string[] => [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '');

describe('help examples', () => {
  it('exist for every command', () => {
    const missing = leaves(program)
      .map((leaf) => leaf.path)
      .filter((path) => (HELP_EXAMPLES[path] ?? []).length === 0);
    expect(missing).toEqual([]);
  });

  it.each(leaves(program).map((leaf) => [leaf.path, leaf.command] as const))('%s: its examples use its own flags', (path, command) => {
    const known = new Set(command.options.flatMap((o) => [o.long, o.short].filter((f): f is string => f !== undefined)));
    for (const { line } of HELP_EXAMPLES[path] ?? []) {
      const args = words(line).slice(1);
      expect(args.slice(0, path.split(' ').length).join(' '), line).toBe(path);
      for (const flag of args.filter((w) => w.startsWith('--'))) expect(known, `${flag} in: ${line}`).toContain(flag.split('=')[0]);
    }
  });

  it('wrap a long command with a continuation, a flag and its value on one line', () => {
    const text = examplesText(
      [{ what: 'replicate', line: 'listing-sync sync --chatbot acme-bot --feed https://mls.example/odata/Property --work' }],
      60,
    );
    expect(text).toBe(
      '\nExamples:\n  # replicate\n  listing-sync sync --chatbot acme-bot \\\n      --feed https://mls.example/odata/Property --work\n',
    );
  });
});
