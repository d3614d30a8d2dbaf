/**
 * A demo stopped any way a user stops one leaves no process behind: `listing-sync demo` and
 * `npm run demo`, with a redis-server of its own (--own-redis), stopped by SIGTERM (to the
 * process started: npm's is forwarded to its shell only), by SIGINT, by Ctrl-C (SIGINT to the
 * whole group, as a terminal sends it), and by a closed stdout pipe (`npm run demo | head`). Each is started in a process
 * group of its own, and after it exits no process of that group may remain: not its
 * redis-server, nor the node process that holds the simulators, the dashboard and the workers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { hasRedisServer } from '../helpers/redis-process.js';
import { CLI_ENTRY } from '../helpers/run-cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
let group: number | undefined;

afterEach(() => {
  // A failed test must not leave its demo running either.
  if (group !== undefined) for (const pid of membersOf(group)) tryKill(pid, 'SIGKILL');
  group = undefined;
});

function tryKill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/** The live processes of process group `pgid`, with their command names (Linux /proc). */
function members(pgid: number): Array<{ pid: number; name: string }> {
  const found: Array<{ pid: number; name: string }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // "pid (comm) state ppid pgrp …": comm may hold spaces, so fields are read after its ')'.
    const close = stat.lastIndexOf(')');
    const [state, , pgrp] = stat.slice(close + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') found.push({ pid: Number(entry), name: stat.slice(stat.indexOf('(') + 1, close) });
  }
  return found;
}

const membersOf = (pgid: number): number[] => members(pgid).map((member) => member.pid);

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/** 'Ctrl-C': SIGINT to the whole process group, as a terminal sends it. */
type Stop = 'SIGTERM' | 'SIGINT' | 'Ctrl-C' | 'closed stdout';

/** Starts the demo in a group of its own, waits for its dashboard, stops it; resolves once its first process exited. */
async function runAndStop(launcher: 'cli' | 'npm', stop: Stop): Promise<{ before: Array<{ pid: number; name: string }>; stderr: string }> {
  const args = ['--own-redis', '--port', '0'];
  const [command, argv] =
    launcher === 'cli' ? [process.execPath, [CLI_ENTRY, 'demo', ...args]] : ['npm', ['run', '--silent', 'demo', '--', ...args]];
  const child: ChildProcess = spawn(command, argv, {
    cwd: root,
    detached: true,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      LISTING_SYNC_PREFIX: `leftovers-demo-${process.pid}-${Date.now()}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  group = child.pid;
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (stop === 'closed stdout') {
    // As `| head` does: the reader goes away before the demo's last line (the dashboard's) is written.
    await until(() => stderr.includes('redis-server started'), 60_000);
    child.stdout?.destroy();
    const before = members(child.pid ?? 0);
    await exited;
    return { before, stderr };
  }
  const ready = await until(() => stdout.includes('dashboard: http'), 90_000);
  expect(ready, `no dashboard line:\n${stderr}`).toBe(true);
  const before = members(child.pid ?? 0);
  if (stop === 'Ctrl-C') process.kill(-(child.pid ?? 0), 'SIGINT');
  else child.kill(stop);
  await exited;
  return { before, stderr };
}

describe.runIf(hasRedisServer())('a stopped demo leaves no process behind', () => {
  const cases: Array<['cli' | 'npm', Stop]> = [
    ['cli', 'SIGTERM'],
    ['cli', 'SIGINT'],
    ['cli', 'closed stdout'],
    ['npm', 'SIGTERM'],
    ['npm', 'Ctrl-C'],
  ];
  it.each(cases)(
    '%s demo stopped by %s',
    async (launcher, stop) => {
      const { before, stderr } = await runAndStop(launcher, stop);
      // The demo had its own redis-server in the group: what must not outlive it.
      expect(
        before.map((member) => member.name),
        stderr,
      ).toContain('redis-server');
      const pgid = group ?? 0;
      const gone = await until(() => membersOf(pgid).length === 0, 15_000);
      expect(gone ? [] : members(pgid), stderr).toEqual([]);
      group = undefined;
    },
    150_000,
  );
});
