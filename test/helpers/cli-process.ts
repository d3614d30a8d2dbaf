/**
 * A long-lived CLI process (`worker`, `dashboard`, `sync --work`) for chaos tests: the built CLI as a
 * child with exactly the env the test gives (plus PATH), its stdout and stderr collected, a wait for
 * a line to appear, and a stop by signal that measures how long the process took to exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI_ENTRY } from './run-cli.js';

export interface CliProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout or stderr matches `pattern`; rejects when the process exits first or after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves with the exit code once the process exited by itself; 'hung' when it still runs after `timeoutMs`. */
  exited(timeoutMs?: number): Promise<number | null | 'hung'>;
  /** Sends `signal` and resolves with the exit code and how long the exit took. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; ms: number }>;
  /** SIGKILL if still running (afterEach). */
  kill(): Promise<void>;
}

/**
 * How long a stop may take and still count as prompt: well within the CLI's forced-exit timer
 * (30 s, src/cli/main.ts), which is what a process held by a forgotten handle would sit out (and
 * then say "forcing exit"). Why not tighter: how fast a loaded machine ends a process is not what
 * these tests judge.
 */
export const PROMPT_EXIT_MS = 20_000;

const running = (child: ChildProcess): boolean => child.exitCode === null && child.signalCode === null;

export function startCli(args: readonly string[], env: Readonly<Record<string, string>>): CliProcess {
  const child = spawn(process.execPath, [CLI_ENTRY, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    async waitFor(pattern, timeoutMs = 30_000) {
      const end = Date.now() + timeoutMs;
      while (!pattern.test(out) && !pattern.test(err)) {
        if (!running(child)) throw new Error(`exited (${child.exitCode}) before ${pattern}:\n${err}`);
        if (Date.now() > end) throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${err}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async exited(timeoutMs = 60_000) {
      let timer: NodeJS.Timeout | undefined;
      const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), timeoutMs)));
      try {
        return await Promise.race([exit, hung]);
      } finally {
        clearTimeout(timer);
      }
    },
    async stop(signal = 'SIGTERM') {
      const started = Date.now();
      if (running(child)) child.kill(signal);
      const code = await exit;
      return { code, ms: Date.now() - started };
    },
    async kill() {
      if (running(child)) child.kill('SIGKILL');
      await exit;
    },
  };
}

/** Lines of a stack trace ("    at fn (file:1:2)"): never in what a user sees in a normal run. */
export function stackTraceLines(text: string): string[] {
  return text.split('\n').filter((line) => /^\s+at\s.+(:\d+:\d+\)?|\(native\))$/.test(line));
}

/** Parsed JSON log lines (non-JSON lines are kept as `{ raw }`). */
export function logLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        return { raw: line };
      }
    });
}

/** Log lines whose message matches `pattern`. */
export function linesSaying(text: string, pattern: RegExp): Array<Record<string, unknown>> {
  return logLines(text).filter((line) => pattern.test(String(line.msg ?? line.raw ?? '')));
}
