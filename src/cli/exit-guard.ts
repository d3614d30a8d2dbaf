/**
 * The forced-exit timer (graphile-worker's `src/cli.ts` has one): once a command's action is over
 * (or the first SIGINT/SIGTERM asked it to stop), the process must end within a bound. When it
 * does not, a handle was left open (a socket, a timer, a release that hangs): one line says what
 * may still be open and the process exits non-zero, instead of hanging silently.
 */
import type { Writable } from 'node:stream';

export interface ExitGuard {
  /** Starts the timer, once: a later call keeps the first deadline and its message. */
  arm(why: string): void;
}

export interface ExitGuardOptions {
  timeoutMs: number;
  stderr: Writable;
  /** Labels of what the command opened and has not finished releasing. */
  unreleased: () => readonly string[];
  exit: (code: number) => void;
  /** The exit code of a forced exit. */
  code: number;
}

/**
 * What keeps the event loop alive, by kind ("TCPSocketWrap ×2, Timeout"): Node's own names, the
 * best a process can say about a handle nobody released.
 */
export function activeResources(): string {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts].map(([kind, n]) => (n === 1 ? kind : `${kind} ×${n}`)).join(', ');
}

export function createExitGuard(options: ExitGuardOptions): ExitGuard {
  let armed = false;
  return {
    arm(why) {
      if (armed) return;
      armed = true;
      const timer = setTimeout(() => {
        const unreleased = options.unreleased().map((label) => `${label} (release not finished)`);
        const open = [...unreleased, activeResources()].filter((part) => part !== '').join(', ') || 'nothing Node reports';
        options.stderr.write(`listing-sync: ${why} within ${options.timeoutMs} ms, forcing exit; may still be open: ${open}\n`);
        options.exit(options.code);
      }, options.timeoutMs);
      // Why unref: the timer itself must not keep a process alive that would otherwise end.
      timer.unref();
    },
  };
}
