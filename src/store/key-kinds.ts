/**
 * Names the kind of every key under an installation's prefix, for the Redis report: listing-sync's
 * own keys by the layout in keys.ts (`{p}:ls:…`), BullMQ's by its own layout (`{p}:{queue}:…`).
 * Pure: key text in, kind out.
 */

/** listing-sync's kinds, by the segment after `{p}:ls:` (keys.ts). */
const STORE_KINDS: Readonly<Record<string, string>> = {
  ledger: 'ledger',
  'ledger-url': 'ledger',
  tomb: 'tombstones',
  'tomb-url': 'tombstones',
  failed: 'failed-keys',
  'failed-url': 'failed-keys',
  claims: 'claims',
  'claims-url': 'claims',
  lease: 'leases',
  runs: 'run-indexes',
  'run-chatbot': 'run-indexes',
  keyidx: 'key-index',
  keytouch: 'key-index',
  'keytouch-days': 'key-index',
  calls: 'call-metrics',
  media: 'media-metrics',
  'retention-lock': 'locks',
  alerts: 'alerts',
  'alert-deliveries': 'alerts',
  'alert-state': 'health',
  'health-chatbots': 'health',
  '{request-permits}': 'request-permits',
  shape: 'feed-shapes',
  metadata: 'feed-metadata',
};

/** The per-run keys `{p}:ls:run:{runId}[:part]` (on a cluster `{p}:ls:run:{{chatbot}}:{runId}[:part]`), by part. */
const RUN_PARTS: Readonly<Record<string, string>> = {
  '': 'run-records',
  outcomes: 'run-outcomes',
  attempts: 'run-attempts',
  jobs: 'run-job-lists',
  rejected: 'run-rejected-rows',
};

/** BullMQ's queue-level keys `{p}:{queue}:{name}`, grouped as an operator thinks of them. */
const QUEUE_KINDS: Readonly<Record<string, string>> = {
  events: 'events',
  completed: 'completed',
  failed: 'failed',
  wait: 'waiting',
  paused: 'waiting',
  prioritized: 'waiting',
  delayed: 'waiting',
  active: 'waiting',
  'waiting-children': 'waiting',
  marker: 'waiting',
  pc: 'waiting',
};

/** Queue-level names that are neither jobs nor job lists (meta, ids, stall checks, limiter, schedulers, metrics…). */
const QUEUE_OTHER = new Set(['meta', 'id', 'stalled', 'stalled-check', 'limiter', 'repeat', 'de', 'metrics']);

/** Keys BullMQ keeps beside a job's hash `{p}:{queue}:{jobId}`: `…:{jobId}:{part}`. */
const JOB_PARTS = new Set(['logs', 'lock', 'dependencies', 'processed', 'failed', 'unsuccessful']);

/** What follows `run:` without the cluster layout's `{chatbot}:` tag (a chatbot may hold ':'). */
function runRest(afterRun: string): string {
  if (!afterRun.startsWith('{')) return afterRun;
  const close = afterRun.indexOf('}:');
  return close < 0 ? afterRun : afterRun.slice(close + 2);
}

function storeKind(rest: string): string {
  const [segment = '', ...more] = rest.split(':');
  if (segment === 'run') return RUN_PARTS[runRest(more.join(':')).split(':').slice(1).join(':')] ?? 'ls-other';
  return STORE_KINDS[segment] ?? 'ls-other';
}

function queueKind(queue: string, rest: readonly string[]): string {
  const [first = ''] = rest;
  const grouped = QUEUE_KINDS[first];
  if (grouped !== undefined && rest.length === 1) return `bullmq:${queue}:${grouped}`;
  if (QUEUE_OTHER.has(first)) return `bullmq:${queue}:other`;
  // Why a job id is told by shape: listing-sync's ids never contain ':' (domain/job-id.ts).
  if (rest.length === 1 || (rest.length === 2 && JOB_PARTS.has(rest[1] ?? ''))) return `bullmq:${queue}:jobs`;
  return `bullmq:${queue}:other`;
}

/**
 * The kind of `key` under `prefix`: e.g. `ledger`, `run-outcomes`, `bullmq:listing-writes:jobs`,
 * `bullmq:sync-runs:events`; `ls-other` / `other` for what the layouts do not name.
 */
export function keyKind(prefix: string, key: string): string {
  const head = `${prefix}:`;
  if (!key.startsWith(head)) return 'other';
  const [space = '', ...rest] = key.slice(head.length).split(':');
  if (space === 'ls') return storeKind(rest.join(':'));
  if (rest.length === 0) return 'other';
  // A cluster's queue names carry a hash tag ({listing-writes}); the kind names the queue.
  return queueKind(space.replace(/^\{(.*)\}$/, '$1'), rest);
}
