/** Where a sync's jobs go: the enqueue thread when there is one, and paced behind this process's own workers with --work. */
import { paceEnqueue, type PacedEnqueue } from '../../queue/enqueue-pace.js';
import type { ProgressBars } from '../output/progress.js';
import type { EnqueueRoute } from './queue-wiring.js';
import type { SyncSession } from './sync-session.js';

export function enqueueRouteOf(
  session: SyncSession,
  bars: ProgressBars,
  timeoutMs: number | undefined,
): { route: EnqueueRoute; pace?: PacedEnqueue } {
  const sink = session.enqueueThread?.sink;
  // Why paced only with --work: the run's workers are then this command's own, and it waits for them anyway.
  if (session.workers === undefined) return { route: sink ? { sink } : {} };
  const pace = paceEnqueue({
    writes: session.ctx.queues.writes,
    store: session.ctx.store,
    signal: session.signal,
    ...(timeoutMs === undefined ? {} : { releaseAfterMs: timeoutMs }),
    onProgress: (finished, total) => bars.update('jobs', finished, total),
  });
  return { route: { ...(sink ? { sink } : {}), pace, signal: session.signal }, pace };
}
