/**
 * The help as a new operator reads it, from the built CLI: `--version`, lines that fit an
 * 80-column terminal, a command's own flags before the shared ones, examples, the exit codes,
 * the test tools listed last, and a misspelt flag answered with the flag it resembles.
 */
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program.js';
import { createReleaseStack } from '../../src/cli/wiring/release-stack.js';
import { runCli } from '../helpers/run-cli.js';

const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Every command path with no subcommands ('sync', 'runs show'). */
function leafPaths(): string[][] {
  const program = buildProgram(
    { env: {}, stdout: new PassThrough(), stderr: new PassThrough(), onShutdown: () => {}, releases: createReleaseStack() },
    () => {},
  );
  const walk = (command: Command, path: string[]): string[][] =>
    command.commands.flatMap((sub) => (sub.commands.length === 0 ? [[...path, sub.name()]] : walk(sub, [...path, sub.name()])));
  return walk(program, []);
}

/** What `listing-sync ARGS` writes to stdout in-process, with `env` (help needs no process). */
async function helpOf(args: string[], env: Record<string, string>): Promise<string> {
  let text = '';
  const stdout = new PassThrough();
  stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const program = buildProgram({ env, stdout, stderr: new PassThrough(), onShutdown: () => {}, releases: createReleaseStack() }, () => {});
  await program.parseAsync(['node', 'listing-sync', ...args]).catch(() => undefined);
  return text;
}

const tooLong = (text: string, width: number): string[] => text.split('\n').filter((line) => line.length > width);

describe('listing-sync help', () => {
  it('--version prints the version of package.json', async () => {
    const run = await runCli(['--version'], {});
    expect(run.stdout.trim()).toBe(version);
    expect(run.code).toBe(0);
  });

  it('fits 80 columns (COLUMNS=80), lists the exit codes and the test tools last', async () => {
    const run = await runCli(['--help'], { COLUMNS: '80' });
    expect(run.code).toBe(0);
    expect(tooLong(run.stdout, 80)).toEqual([]);
    expect(run.stdout).toMatch(/^Exit codes:\n {2}0 {2}done\n {2}1 .*\n {2}2 .*\n {2}3 {2}refused by a safety guard/m);
    const commands = [...run.stdout.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]);
    expect(commands.slice(-3)).toEqual(['demo', 'sim', 'help']);
  });

  it('fits 80 columns for every command, each with examples', async () => {
    for (const path of leafPaths()) {
      const text = await helpOf([...path, '--help'], { COLUMNS: '80' });
      expect(tooLong(text, 80), path.join(' ')).toEqual([]);
      expect(text, path.join(' ')).toMatch(/\nExamples:\n( {2}# .+\n)+ {2}listing-sync /);
    }
  });

  it("sync --help lists sync's own flags first, then the shared ones, then examples", async () => {
    const run = await runCli(['sync', '--help'], { COLUMNS: '80' });
    const text = run.stdout;
    const at = (needle: string): number => text.indexOf(needle);
    expect(at('--chatbot <serial>')).toBeGreaterThan(-1);
    expect(at('--chatbot <serial>')).toBeLessThan(at('--dry-run'));
    expect(at('--dry-run')).toBeLessThan(at('Shared options:'));
    expect(at('Shared options:')).toBeLessThan(at('--redis-url <url>'));
    expect(at('--redis-url <url>')).toBeLessThan(at('Examples:'));
    expect(text).toContain('listing-sync sync --chatbot acme-bot --feed /feeds/acme.csv');
  });

  it('worker --help does not offer --json, which prints no result there', async () => {
    const text = await helpOf(['worker', '--help'], { COLUMNS: '80' });
    expect(text).toContain('--concurrency');
    expect(text).not.toContain('--json');
    // Still accepted, so that scripts passing it keep working (it means LOG_FORMAT=json there).
    const run = await runCli(['worker', '--json', '--api-base-url', 'not a url'], {});
    expect(run.stderr).not.toContain('unknown option');
    expect(run.stderr).toContain('API_BASE_URL');
    expect(run.code).toBe(2);
  });

  it('a misspelt required flag is named, with the flag it resembles (exit 2)', async () => {
    const run = await runCli(['sync', '--chatbto', 'bot', '--feed', 'feed.csv'], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown option '--chatbto'");
    expect(run.stderr).toContain('Did you mean --chatbot?');
    expect(run.stderr).not.toContain("required option '--chatbot");

    const missing = await runCli(['sync', '--feed', 'feed.csv'], {});
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("error: required option '--chatbot <serial>' not specified");
  });
});
