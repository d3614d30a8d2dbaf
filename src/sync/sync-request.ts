/**
 * What a user (or a schedule) asks a sync to do, as a zod schema: the type is inferred from it,
 * and a request that comes back from Redis (a schedule's stored payload) is parsed with it
 * before the sync runs.
 */
import { z } from 'zod';
import { parseGuardLimit } from '../domain/guard.js';
import { SYNC_KEY_TYPES } from '../domain/listing.js';
import { DEFAULT_MAX_WIPES, type WipeLimits } from '../domain/wipe-guard.js';
import { DELETE_SCOPES, SYNC_MODES } from '../domain/plan.js';
import { ListingSyncError } from '../shared/errors.js';
import { PROFILE_NAMES } from '../feed/record-mapping.js';
import { FEED_FORMATS } from '../feed/sniff.js';
import { RUN_TRIGGERS } from '../store/run-types.js';
import { ErrorCode } from '../shared/error-codes.js';
import { issueLines } from '../shared/zod-issues.js';

const whereScalar = z.union([z.string(), z.number(), z.boolean()]);
const whereBound = z.union([z.string(), z.number()]);
/** One field's condition of a `where`: a value, a list, or a range (checked whole by whereProblems when the fleet file is read). */
const whereConditionSchema = z.union([
  whereScalar,
  z.array(whereScalar).min(1),
  z.object({ gte: whereBound.optional(), lte: whereBound.optional(), gt: whereBound.optional(), lt: whereBound.optional() }).strict(),
]);

/** The feed part of a request: where and how to read it (the key type is the request's own). */
const feedRequestSchema = z.object({
  source: z.string().min(1),
  profile: z.enum(PROFILE_NAMES),
  /** Default 'utf-8'. */
  encoding: z.string().optional(),
  mapping: z.string().optional(),
  /** Default: sniffed. */
  format: z.enum(FEED_FORMATS).optional(),
  /** Default: sniffed from the header line. */
  delimiter: z.string().optional(),
  /** A fleet chatbot's filter on the source's fields (src/domain/where.ts): only matching records are its listings. */
  where: z.record(z.string(), whereConditionSchema).optional(),
  /** The MLS display policy's YAML file (`--display-policy`, a fleet source's `displayPolicy`), read by each run; absent: the defaults. */
  displayPolicy: z.string().min(1).optional(),
});

/** RESO Web API replication (`--replicate`): an incremental pull by ModificationTimestamp instead of reading the feed whole. */
const replicateSchema = z.object({
  /** Also pull every key and delete managed listings whose key is gone (only after a complete sweep). */
  sweep: z.boolean(),
  /** The pull starts this long before the stored watermark. */
  overlapMs: z.number().int().min(0),
  /** `$top` asked (default 1000). */
  pageSize: z.number().int().min(1).optional(),
  /** The feed credential's request budget as typed (`mls-grid`, `2/s,7200/h`): a spec, never a secret. */
  budget: z.string().min(1).optional(),
  /** `--events`: read the EntityEvent resource after the stored sequence instead of pulling by timestamp (event-replication.ts). */
  events: z.boolean().optional(),
  /** `--hotlink-media`: the provider gave leave to link its media URLs (the mls-grid preset refuses a run without a store otherwise). */
  hotlinkMedia: z.boolean().optional(),
});

/**
 * A fleet source's own media store (`mediaStore`, `mediaBaseUrl`, `mediaUserAgent`): its photos are
 * hosted there whatever the process's --media-store. Addresses and a mode, never a secret.
 */
const mediaSchema = z.object({
  store: z.string().min(1),
  baseUrl: z.string().min(1),
  userAgent: z.string().min(1).optional(),
});

/** Serialisable: it is also a sync-run job's payload (a schedule stores it). */
export const syncRequestSchema = z.object({
  chatbot: z.string().min(1),
  feed: feedRequestSchema,
  keyType: z.enum(SYNC_KEY_TYPES),
  mode: z.enum(SYNC_MODES),
  deleteScope: z.enum(DELETE_SCOPES),
  /** '10%' or a count, as typed on the command line. */
  maxDeletes: z.string(),
  maxRejectedPercent: z.number().min(0).max(100),
  force: z.boolean(),
  dryRun: z.boolean(),
  volatileFields: z.array(z.string()).optional(),
  pageSize: z.number().int().min(1).optional(),
  trigger: z.enum(RUN_TRIGGERS).optional(),
  /** How long to wait for another run of the chatbot to end before refusing (default 0: refuse at once). */
  waitForLockMs: z.number().min(0).optional(),
  replicate: replicateSchema.optional(),
  /** --max-wipes as typed ('10%' or a count; default 10%): the field-wipe guard's limit. */
  maxWipes: z.string().optional(),
  /** --allow-wipe: fields (write-shape names) this run may empty whatever --max-wipes says. */
  allowWipe: z.array(z.string()).optional(),
  /** The fleet source the chatbot's records come from (`fleet run SOURCE`, or the source's schedule): its runs name it. */
  fleetSource: z.string().min(1).optional(),
  /** Go on although the feed lost columns (or their values) since the last run, and record its new shape (`--accept-shape`). */
  acceptShape: z.boolean().optional(),
  /** Where this request's photos are hosted (a fleet source's `mediaStore`); absent: the process's --media-store. */
  media: mediaSchema.optional(),
});

export type SyncRequest = z.infer<typeof syncRequestSchema>;

/**
 * A stored request (a schedule's payload) as a SyncRequest, or INVALID_INPUT naming every bad
 * field: the schedule was added by another version, or its data was edited in Redis.
 */
export function parseStoredRequest(payload: unknown, what: string): SyncRequest {
  const parsed = syncRequestSchema.safeParse(payload);
  if (parsed.success) return parsed.data;
  const problems = issueLines(parsed.error.issues, { whole: 'request' });
  throw new ListingSyncError(
    ErrorCode.INVALID_INPUT,
    `${what}: the stored sync request is not one this version can run (${problems.join('; ')}); add the schedule again`,
  );
}

/** The field-wipe guard's limits a request asks for (the defaults where it names none). */
export function wipeLimitsOf(request: SyncRequest): WipeLimits {
  const maxWipes = request.maxWipes === undefined ? DEFAULT_MAX_WIPES : parseGuardLimit(request.maxWipes, '--max-wipes');
  return { maxWipes, allowWipe: request.allowWipe ?? [] };
}
