/**
 * Bodies of the admin routes (/__reso/*), as zod schemas. The in-process API (ResoRecords) takes
 * the same shapes, so a test that calls it directly and one that posts JSON mean the same thing.
 */
import { z } from 'zod';
import { parseInstant } from './instant.js';
import { RESO_STATUSES } from './types.js';

/**
 * An ISO 8601 instant at millisecond precision (records hold milliseconds). The shape is a
 * regex so a refusal names its field; the calendar check catches 2024-02-31.
 */
export const stampSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})$/, {
    message: 'must be an ISO 8601 date-time such as 2024-05-01T12:00:00.000Z',
    abort: true,
  })
  .refine((text) => parseInstant(text) !== undefined, 'a timestamp names a date or time that does not exist');

const keysSchema = z.array(z.string().min(1)).min(1);
const statusSchema = z.enum(RESO_STATUSES);

export const seedSchema = z
  .object({
    count: z.number().int().min(1).max(1_000_000),
    /** Every new record gets this stamp: equal timestamps across a page boundary. */
    timestamp: stampSchema.optional(),
    /** The first record's stamp; the next ones `stepMs` apart. Without it, the last is stamped now. */
    startAt: stampSchema.optional(),
    stepMs: z.number().int().min(0).optional(),
    status: statusSchema.optional(),
    /** Photos per record (random 0..8 when absent). */
    photos: z.number().int().min(0).max(100).optional(),
  })
  .strict();

/** Members an admin may change; ListingKey, stamps and photos have routes of their own. */
export const changesSchema = z
  .object({
    ListPrice: z.number().positive(),
    /** Servers leave these empty on many records (RESO's reference server does); '' models that. */
    ListingId: z.string(),
    ListingURL: z.string(),
    StandardStatus: statusSchema,
    MlgCanView: z.boolean(),
    City: z.string(),
    StateOrProvince: z.string(),
    PostalCode: z.string(),
    UnparsedAddress: z.string(),
    BedroomsTotal: z.number().int().min(0),
    BathroomsTotalInteger: z.number().int().min(0),
    LivingArea: z.number().min(0),
    YearBuilt: z.number().int(),
    PublicRemarks: z.string(),
    Latitude: z.number(),
    Longitude: z.number(),
    InternetEntireListingDisplayYN: z.boolean(),
    InternetAddressDisplayYN: z.boolean(),
    InternetAutomatedValuationDisplayYN: z.boolean(),
    MlgCanUse: z.array(z.string()),
    ListOfficeName: z.string(),
    ListOfficePhone: z.string(),
    ListAgentEmail: z.string(),
    PrivateRemarks: z.string(),
    ShowingInstructions: z.string(),
    AssociationFee: z.number().min(0),
    /** Any text: a server's own lookup values are what the Lookup resource explains. */
    AssociationFeeFrequency: z.string(),
  })
  .partial()
  .strict();

export const modifySchema = z
  .object({
    keys: keysSchema,
    /** The new ModificationTimestamp (default: the clock's now). */
    timestamp: stampSchema.optional(),
    /** Default: ListPrice raised by 1000, a change every planner sees. */
    changes: changesSchema.optional(),
    /** Members the records no longer carry, as a server that stopped sending a field (no default change then). */
    drop: z.array(changesSchema.keyof()).optional(),
  })
  .strict();

export const stampedKeysSchema = z.object({ keys: keysSchema, timestamp: stampSchema.optional() }).strict();

export const setStatusSchema = stampedKeysSchema.extend({ status: statusSchema }).strict();

export const removeSchema = z.object({ keys: keysSchema }).strict();

export const setMediaSchema = z
  .object({
    keys: keysSchema,
    /** New photos with these URLs, in this Order; or `photos` generated ones. */
    urls: z.array(z.string().url()).max(100).optional(),
    photos: z.number().int().min(0).max(100).optional(),
    timestamp: stampSchema.optional(),
    /** Whether ModificationTimestamp moves with PhotosChangeTimestamp (default true, as most MLSs do). */
    touch: z.boolean().optional(),
  })
  .strict()
  .refine((body) => (body.urls === undefined) !== (body.photos === undefined), 'give either urls or photos');

export const resetSchema = z.object({ counters: z.boolean().optional(), budget: z.boolean().optional() }).strict();

export type SeedInput = z.infer<typeof seedSchema>;
export type RecordChanges = z.infer<typeof changesSchema>;
export type ModifyInput = z.infer<typeof modifySchema>;
export type StampedKeysInput = z.infer<typeof stampedKeysSchema>;
export type SetStatusInput = z.infer<typeof setStatusSchema>;
export type SetMediaInput = z.infer<typeof setMediaSchema>;
export type ResetInput = z.infer<typeof resetSchema>;

/** Drops the EntityEvent history below `below` (the events a server no longer retains). */
export const purgeEventsSchema = z.object({ below: z.number().int().min(1) }).strict();
