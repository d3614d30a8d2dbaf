/**
 * `listing-sync … | head`: when the reader of stdout goes away, the CLI stops writing quietly (as
 * any Unix tool does) instead of dying with Node's "Unhandled 'error' event … EPIPE" stack trace.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI_ENTRY } from '../helpers/run-cli.js';

describe('stdout closed by its reader', () => {
  it('ends the command without a stack trace when `sync --help` is piped into a reader that quits', async () => {
    const child = spawn(process.execPath, [CLI_ENTRY, 'sync', '--help'], {
      env: { PATH: process.env.PATH ?? '', COLUMNS: '80' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reader quits before reading anything, as `| head -0` would: every write meets EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', (exitCode) => resolve(exitCode)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
