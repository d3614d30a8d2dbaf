/**
 * Defaults and the schema of the simulator's configuration: what startResoSimulator takes and
 * what POST /__reso/config changes on a running one (a test switches nextLink off between two
 * pulls without restarting the server).
 */
import { z } from 'zod';
import type { ResoConfig, ResoCredentials, ResoSimOptions } from './types.js';

export const DEFAULT_RESO_CREDENTIALS: Readonly<ResoCredentials> = { clientId: 'reso-sim-client', clientSecret: 'reso-sim-secret' };

/** MLS Grid's page cap with $expand is 1000; the defaults are those of a well-behaved MLS. */
export const DEFAULT_RESO_CONFIG: Readonly<ResoConfig> = {
  maxTop: 1000,
  nextLink: true,
  expandMedia: true,
  tokenTtlSeconds: 3600,
  budget: {},
  faults: {},
};

const rate = z.number().min(0).max(1).optional();
const positive = z.number().int().positive().optional();
/** An OData simple identifier (CSDL: a letter or underscore, then letters, digits, underscores). */
const fieldName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/);

export const resoBudgetSchema = z.object({ perSecond: positive, perHour: positive, perDay: positive, bytesPerHour: positive }).strict();

export const resoFaultsSchema = z
  .object({
    seed: z.number().int().optional(),
    rateLimitRate: rate,
    retryAfterSeconds: z.number().int().min(0).max(3600).optional(),
    serverErrorRate: rate,
    serverErrorStatus: z.union([z.literal(500), z.literal(502), z.literal(503), z.literal(504)]).optional(),
    nextStatuses: z
      .array(z.union([z.literal(200), z.number().int().min(400).max(599)]))
      .max(1000)
      .optional(),
    tokenRevokeAfterMs: z.number().int().min(0).optional(),
  })
  .strict();

/** A partial ResoConfig; members given replace the current ones whole (budget and faults too). */
export const resoConfigSchema = z
  .object({
    maxTop: z.number().int().min(1).max(100_000),
    defaultTop: z.number().int().min(1).max(100_000),
    topSemantics: z.enum(['total', 'pageSize']),
    honourMaxPageSize: z.boolean(),
    skipBug: z.boolean(),
    dropNextLinkAfter: z.number().int().min(1),
    serveAtMost: z.number().int().min(0),
    count: z.boolean(),
    nextLink: z.boolean(),
    expandMedia: z.boolean(),
    tokenTtlSeconds: z.number().int().min(1).max(86_400),
    noMetadata: z.union([z.literal(404), z.literal(501)]),
    fieldNames: z.object({ key: fieldName.optional(), timestamp: fieldName.optional() }).strict(),
    lookups: z
      .array(
        z
          .object({
            LookupName: z.string().min(1),
            LookupValue: z.string().min(1),
            StandardLookupValue: z.string().optional(),
            LegacyODataValue: z.string().optional(),
          })
          .strict(),
      )
      .max(10_000),
    budget: resoBudgetSchema,
    faults: resoFaultsSchema,
  })
  .partial()
  .strict();

export type ResoConfigChange = z.infer<typeof resoConfigSchema>;

/** The configuration a simulator starts with: the options' members over the defaults (validated). */
export function resoConfigOf(options: ResoSimOptions): ResoConfig {
  const given = resoConfigSchema.parse({
    maxTop: options.maxTop,
    defaultTop: options.defaultTop,
    topSemantics: options.topSemantics,
    honourMaxPageSize: options.honourMaxPageSize,
    skipBug: options.skipBug,
    dropNextLinkAfter: options.dropNextLinkAfter,
    serveAtMost: options.serveAtMost,
    count: options.count,
    nextLink: options.nextLink,
    expandMedia: options.expandMedia,
    tokenTtlSeconds: options.tokenTtlSeconds,
    noMetadata: options.noMetadata,
    fieldNames: options.fieldNames,
    lookups: options.lookups,
    budget: options.budget,
    faults: options.faults,
  });
  const defined = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
  return { ...DEFAULT_RESO_CONFIG, ...defined };
}
