/**
 * `--profile DIR`: a CPU profile of the queue's work phase only (first job active → run end),
 * written as DIR/sync-work-<time>.cpuprofile for Chrome DevTools or `node --cpu-prof`-style tools.
 */
import { Session } from 'node:inspector/promises';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface WorkProfiler {
  start(): Promise<void>;
  /** Stops profiling and writes the profile; returns its path. */
  stop(): Promise<string>;
}

export function workProfiler(dir: string): WorkProfiler {
  const session = new Session();
  return {
    async start() {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 200 });
      await session.post('Profiler.start');
    },
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      await mkdir(dir, { recursive: true });
      const path = join(dir, `sync-work-${Date.now()}.cpuprofile`);
      await writeFile(path, JSON.stringify(profile));
      return path;
    },
  };
}
