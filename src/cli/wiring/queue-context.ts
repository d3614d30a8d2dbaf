/** What a command holds while it uses Redis: opened by queue-wiring.ts, used by every wiring file. */
import type { Queues } from '../../queue/queues.js';
import type { RedisWatch } from '../../queue/redis-watch.js';
import type { RedisClient } from '../../store/redis-client.js';
import type { Store } from '../../store/store.js';

export interface QueueContext {
  redis: RedisClient;
  store: Store;
  queues: Queues;
  /** This process's Redis watch: outage lines (one per interval), and whether Redis answers now. */
  watch: RedisWatch;
  /** Closes the queues, then the connection (BullMQ never closes connections it was given); never hangs on a down Redis. */
  close(): Promise<void>;
}
