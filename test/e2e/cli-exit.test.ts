/**
 * How the built CLI ends (src/cli/main.ts): what a command opened is released when its action is
 * over, so the process exits at once; a handle something left open no longer hangs it silently:
 * the forced-exit timer (30 s) prints one line naming what may still be open and exits 1. The
 * leaked handle is a real one, opened in the CLI process by a Node preload (`--import`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { PROMPT_EXIT_MS, startCli, type CliProcess } from '../helpers/cli-process.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { runCli } from '../helpers/run-cli.js';

const url = inject('redisUrl');
const dir = mkdtempSync(join(tmpdir(), 'cli-exit-'));
let running: CliProcess | undefined;

afterEach(async () => {
  await running?.kill();
  running = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A Node preload that leaves a listening socket open in the CLI process (as a forgotten server would). */
function leakingPreload(): string {
  const file = join(dir, 'leak-a-server.mjs');
  writeFileSync(file, "import { createServer } from 'node:net';\ncreateServer().listen(0, '127.0.0.1');\n");
  return pathToFileURL(file).href;
}

describe('the CLI process ends', () => {
  it('at once when its command leaves nothing open: the Redis connection it opened is released', async () => {
    const prefix = uniquePrefix('exit');
    const started = Date.now();
    const run = await runCli(['runs', 'list', '--json'], { REDIS_URL: url, LISTING_SYNC_PREFIX: prefix });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ runs: [] });
    expect(Date.now() - started).toBeLessThan(PROMPT_EXIT_MS);
    expect(run.stderr).not.toContain('forcing exit');
    await cleanPrefix(url, prefix);
  });

  it('at once after SIGTERM when a long-running command released what it opened', async () => {
    running = startCli(['sim', '--port', '0'], {});
    await running.waitFor(/simulator listening on/);
    const { code, ms } = await running.stop('SIGTERM');
    expect(code).toBe(0);
    expect(ms).toBeLessThan(PROMPT_EXIT_MS);
    expect(running.stderr()).toBe('');
  });

  it('within the forced-exit bound when a handle stays open, with one line naming it, exit 1', async () => {
    running = startCli(['--help'], { NODE_OPTIONS: `--import=${leakingPreload()}` });
    const code = await running.exited(45_000);
    expect(code).toBe(1);
    expect(running.stdout()).toContain('Usage: listing-sync');
    const lines = running
      .stderr()
      .split('\n')
      .filter((line) => line !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^listing-sync: the command ended but the process did not exit within 30000 ms, forcing exit; may still be open: .*TCPServerWrap/,
    );
  }, 60_000);

  it('names a release that never finishes (the exit guard and the release stack, with real timers, in a child process)', async () => {
    // The compiled modules themselves (the shipped CLI bundles them into dist/cli/bundle.cjs).
    const cli = fileURLToPath(new URL('../../dist/src/cli/', import.meta.url));
    const script = [
      `import { createReleaseStack } from ${JSON.stringify(pathToFileURL(join(cli, 'wiring', 'release-stack.js')).href)};`,
      `import { createExitGuard } from ${JSON.stringify(pathToFileURL(join(cli, 'exit-guard.js')).href)};`,
      'const stack = createReleaseStack();',
      "stack.push('Redis connection', () => {});",
      "stack.push('workers', () => new Promise(() => setInterval(() => {}, 1000)));",
      'const guard = createExitGuard({ timeoutMs: 300, stderr: process.stderr, unreleased: () => stack.pending(), exit: (code) => process.exit(code), code: 1 });',
      "guard.arm('the command ended but the process did not exit');",
      'await stack.releaseAll();',
    ].join('\n');
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /within 300 ms, forcing exit; may still be open: workers \(release not finished\), Redis connection \(release not finished\), .*Timeout/,
    );
  });
});
