/**
 * Runs the built CLI (package.json `bin`) as a child process and collects what a user sees.
 * Asynchronous on purpose: the simulator runs in the test process and must keep answering.
 * The env is exactly what the test gives (plus PATH), so a developer's LOG_LEVEL or keys never leak in.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { bin: Record<string, string> };
export const CLI_ENTRY = `${root}${pkg.bin['listing-sync'] ?? ''}`;

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI (or the launcher `entry`) to its end with exactly `env` (plus PATH). */
export async function runCli(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  timeoutMs = 20_000,
  entry = CLI_ENTRY,
): Promise<CliRun> {
  return await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`listing-sync ${args.join(' ')} did not finish within ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Lines of a stream's text, without the trailing empty one. */
export function lines(text: string): string[] {
  return text.split('\n').filter((line, i, all) => line !== '' || i < all.length - 1);
}

/** stdout parsed as the one JSON object --json promises; the error shows what came out instead. */
export function jsonOf<T>(run: CliRun): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`stdout is not one JSON object (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
  }
}
