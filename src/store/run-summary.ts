/**
 * The summary a run record holds: the sync's summary (src/sync writes it, the CLI prints it) as a
 * zod schema, so the type is inferred once and every reader gets parsed, typed values.
 *
 * Two readings: `syncSummarySchema` is the whole summary (what this version writes; fields that
 * older versions did not write get their default), and `runSummarySchema` is what a stored record
 * is read as: every part that is valid is kept, a part that is not is dropped, so an old or odd
 * record never breaks a page (the dashboard, `runs show`).
 */
import { z } from 'zod';
import { displaySummarySchema } from './display-summary.js';
import { fieldChangesSchema, wipesSchema } from './field-summary.js';
import { RUN_STATUSES, RUN_TRIGGERS } from './run-status.js';

const count = z.number();

const feedSchema = z.object({
  source: z.string(),
  profile: z.string(),
  rows: count,
  valid: count,
  rejected: count,
  excluded: count,
  duplicates: count,
  filledDefaults: z.record(z.string(), count),
  /** Values left empty because their legal source value has no equivalent, per "Field: why". */
  leftEmpty: z.record(z.string(), count).optional(),
  /** A fleet chatbot's run: the source's records outside its `where` (not counted in `rows`). */
  outsideFilter: count.optional(),
  /** Rejected rows counted by field and kind of reason, most frequent first (src/sync/rejected-rows.ts). */
  rejectedBy: z.array(z.object({ field: z.string(), reason: z.string(), count })).optional(),
});

const remoteSchema = z.object({
  listings: count,
  virtualCount: count,
  complete: z.boolean(),
  incompleteReasons: z.array(z.string()),
  duplicates: count,
  unkeyed: count,
});

const planSchema = z.object({
  create: count,
  update: count,
  delete: count,
  unchanged: count,
  // Why a default: runs recorded before rejected rows held their listings have no `held`.
  held: count.default(0),
  /** Present when rows too broken to read their key made the plan withhold every delete; `reason` says so in a sentence. */
  deletesWithheld: z.object({ deletes: count, rows: count, lines: z.array(count), reason: z.string() }).optional(),
  adopted: count.optional(),
});

const guardSchema = z.object({ ok: z.boolean(), reasons: z.array(z.string()), forced: z.boolean() });

/** What the feed-shape check found (src/domain/feed-shape.ts ShapeDrift), present only when the feed lost a column or its values. */
const shapeSchema = z.object({
  /** header: found when the feed opened, before anything else was read; rows: once the feed was read. */
  stage: z.enum(['header', 'rows']),
  /** The run went on with --accept-shape (and recorded the new shape). */
  accepted: z.boolean(),
  drift: z.array(
    z.object({
      kind: z.enum(['gone', 'emptied']),
      format: z.enum(['csv', 'json']),
      column: z.string(),
      fields: z.array(z.string()),
      before: z.object({ rows: count, of: count, runId: z.string() }),
      rowsNow: count.optional(),
      lookalike: z.string().optional(),
    }),
  ),
});

/**
 * What hosting a file feed's photos did (src/feed/media/photo-counts.ts PhotoCounts); a replicating
 * run's counts are its `replication.photos`.
 */
export const photoCountsSchema = z.object({
  hosted: count,
  reused: count,
  notFetched: count,
  bytes: count,
  refreshed: count,
  wouldFetch: count.optional(),
  failures: z.record(z.string(), z.record(z.string(), count)),
});

const resultSchema = z.object({
  created: count,
  updated: count,
  deleted: count,
  failed: count,
  superseded: count.optional(),
  retried: count.optional(),
});

/**
 * The summary a sync prints (text or --json) and stores on its run record. Field names are a
 * contract with scripts: `runId`, `chatbot`, `feed`, `remote`, `plan`, `guard`, `result`. The key
 * order is the order a stored summary has (`runs show` prints it as stored).
 */
export const syncSummarySchema = z.object({
  runId: z.string(),
  chatbot: z.string(),
  dryRun: z.boolean(),
  trigger: z.enum(RUN_TRIGGERS),
  startedAt: z.string(),
  feed: feedSchema,
  remote: remoteSchema,
  plan: planSchema,
  /** Per field, the listings the plan changes (absent on runs recorded before it was counted). */
  changes: fieldChangesSchema.optional(),
  guard: guardSchema,
  /** The field-wipe guard's limits and findings (absent on runs recorded before it). */
  wipes: wipesSchema.optional(),
  finishedAt: z.string().optional(),
  /** Jobs enqueued (absent for a dry run or a refused run). */
  jobs: count.optional(),
  /** The run's status once waited for (done, failed, cancelled, stuck): sync --wait / --work, runs resume. */
  status: z.enum(RUN_STATUSES).optional(),
  /** Final outcome once the run's jobs finished (sync --wait / --work). */
  result: resultSchema.optional(),
  /** Set when the feed lost a column (or its values) since the last run of the same feed. */
  shape: shapeSchema.optional(),
  /** The fleet source this run received its records from (`fleet run SOURCE`, or its schedule); absent otherwise. */
  source: z.string().optional(),
  /** What the MLS display policy withheld, did not publish and blanked (absent on runs recorded before it). */
  display: displaySummarySchema.optional(),
  /** A file feed's sync with a media store: photos hosted, reused and not fetched (absent: Images are the feed's URLs). */
  photos: photoCountsSchema.optional(),
});

export type SyncSummary = z.infer<typeof syncSummarySchema>;
export type SyncResult = z.infer<typeof resultSchema>;

/** The summary of a scheduled run that found its chatbot held by another run (status 'skipped'). */
export interface SkippedSummary {
  skipped: string;
}

/** What a run record is created with. Chatbot edit runs have none. */
export type NewRunSummary = SyncSummary | SkippedSummary;

/** A part of a stored summary: kept when valid, dropped (undefined) when not. */
function part<T extends z.ZodType>(schema: T) {
  return schema.optional().catch(undefined);
}

/** A stored summary as read back: each valid part, and any field this version does not know (kept for `runs show`). */
export const runSummarySchema = z
  .object({
    runId: part(z.string()),
    chatbot: part(z.string()),
    dryRun: part(z.boolean()),
    trigger: part(z.string()),
    startedAt: part(z.string()),
    feed: part(feedSchema),
    remote: part(remoteSchema),
    plan: part(planSchema),
    changes: part(fieldChangesSchema),
    guard: part(guardSchema),
    wipes: part(wipesSchema),
    finishedAt: part(z.string()),
    jobs: part(count),
    status: part(z.string()),
    result: part(resultSchema),
    shape: part(shapeSchema),
    skipped: part(z.string()),
    source: part(z.string()),
    display: part(displaySummarySchema),
    photos: part(photoCountsSchema),
  })
  .loose();

export type RunSummary = z.infer<typeof runSummarySchema>;

/** A stored summary's JSON text → its valid parts; null when there is none (chatbot edit runs) or it is not an object. */
export function readRunSummary(text: string | undefined): RunSummary | null {
  if (text === undefined || text === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = runSummarySchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The whole sync summary of a run, or undefined when the run did not come from a sync (or its summary lacks a part). */
export function syncSummaryOf(summary: RunSummary | null): SyncSummary | undefined {
  const parsed = syncSummarySchema.safeParse(summary);
  return parsed.success ? parsed.data : undefined;
}
