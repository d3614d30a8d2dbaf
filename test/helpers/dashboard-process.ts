/**
 * The built `listing-sync dashboard` (the bundle users run) as a child process on a free port,
 * with basic-auth credentials; `stop()` ends it with SIGTERM and waits for its exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { CLI_ENTRY } from './run-cli.js';

export const DASHBOARD_USER = 'ops';
export const DASHBOARD_PASSWORD = 'browser-words-password-5';

export interface DashboardProcess {
  url: string;
  /** Its first stdout line (where it listens, and how). */
  line: string;
  stop(): Promise<void>;
}

/** Ends `child` with SIGTERM (when still running) and waits until it has exited. */
export async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}

/** What a test adds to the dashboard's command line and environment (`--work` and the service's settings). */
export interface DashboardExtras {
  args?: readonly string[];
  env?: Readonly<Record<string, string>>;
}

/** Starts the dashboard over `redisUrl` under `prefix`; resolves with its URL and first stdout line. */
export async function startDashboardProcess(redisUrl: string, prefix: string, extras: DashboardExtras = {}): Promise<DashboardProcess> {
  const args = [CLI_ENTRY, 'dashboard', '--port', '0', '--redis-url', redisUrl, '--prefix', prefix, ...(extras.args ?? [])];
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', DASHBOARD_USER, DASHBOARD_PASSWORD, LOG_LEVEL: 'warn', ...extras.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    const line = await new Promise<string>((done, fail) => {
      createInterface({ input: child.stdout }).once('line', done);
      child.once('exit', (code) => fail(new Error(`dashboard exited early with ${String(code)}: ${stderr}`)));
    });
    const match = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(line);
    if (!match?.[1]) throw new Error(`unexpected first line: ${line}`);
    return { url: match[1], line, stop: () => stopChild(child) };
  } catch (thrown) {
    await stopChild(child);
    throw thrown;
  }
}
