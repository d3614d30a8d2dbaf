/**
 * The built CLI on a pseudo-terminal of a given width, as a person at a terminal runs it: util-linux
 * `script` gives it a pty (stdout and stderr are TTYs, `stty cols` sets the width it reads), and a
 * Ctrl-C is the byte 0x03 typed into that terminal. What the terminal received comes back raw,
 * escape sequences included, and as text lines with them taken out.
 */
import { spawn } from 'node:child_process';
import { CLI_ENTRY } from './run-cli.js';

export interface TerminalProcess {
  /** Everything written to the terminal so far, raw. */
  raw(): string;
  /** Types Ctrl-C into the terminal. */
  interrupt(): void;
  /** Resolves once the terminal shows `pattern` (escape sequences taken out). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves with the exit code once the CLI ended. */
  exited(): Promise<number | null>;
  kill(): void;
}

const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

/** What the terminal shows as text: escape sequences and carriage returns taken out. */
export function terminalText(raw: string): string {
  return raw.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
}

export function startOnTerminal(args: readonly string[], env: Readonly<Record<string, string>>, columns: number): TerminalProcess {
  const command = `stty cols ${columns} rows 40; exec ${[process.execPath, CLI_ENTRY, ...args].map(quote).join(' ')}`;
  const child = spawn('script', ['-q', '-f', '-e', '-c', command, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', TERM: 'xterm', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    raw: () => out,
    interrupt: () => void child.stdin.write('\u0003'),
    async waitFor(pattern, timeoutMs = 30_000) {
      const end = Date.now() + timeoutMs;
      while (!pattern.test(terminalText(out))) {
        if (child.exitCode !== null) throw new Error(`exited (${child.exitCode}) before ${pattern}:\n${terminalText(out)}`);
        if (Date.now() > end) throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${terminalText(out)}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    exited: () => exit,
    kill: () => void (child.exitCode === null && child.kill('SIGKILL')),
  };
}
