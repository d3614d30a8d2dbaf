/**
 * Lowering the CPU priority of the calling thread only (not the process), for background work
 * that must not take the cores from latency-sensitive work in the same process.
 *
 * Linux only: there every thread is a task with a nice value of its own, named by
 * /proc/thread-self, and raising a nice value needs no privilege. Elsewhere, or when the system
 * refuses, the thread keeps its priority: it is a speed policy, never a failure.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** Highest nice value (lowest priority) Linux knows. */
const LOWEST = 19;

/**
 * Makes the calling thread `steps` nice levels lower in priority than it is (at most nice 19).
 * Returns the thread's nice value afterwards, or undefined when it could not be changed.
 */
export function lowerThreadPriority(steps: number): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isSafeInteger(tid) || tid <= 0) return undefined;
    const nice = Math.min(LOWEST, getPriority(tid) + steps);
    setPriority(tid, nice);
    return nice;
  } catch {
    return undefined;
  }
}
