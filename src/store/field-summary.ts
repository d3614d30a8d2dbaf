/**
 * The parts of a run's summary that say what its plan changes per field, and what the field-wipe
 * guard found (src/domain/field-changes.ts, wipe-guard.ts), as zod schemas for run-summary.ts.
 */
import { z } from 'zod';

/** One listing's change of a field: key, before → after; `filled` when the after is a default filled in. */
const sampleSchema = z.object({
  key: z.string(),
  from: z.unknown().optional(),
  to: z.unknown().optional(),
  filled: z.boolean().optional(),
  notReadBack: z.boolean().optional(),
});

/**
 * Per field, how many listings the plan changes, with the first three as samples (write-shape field
 * order); `notReadBack`: a field the service's read did not show, compared with what this tool last sent.
 */
export const fieldChangesSchema = z.array(
  z.object({ field: z.string(), count: z.number(), samples: z.array(sampleSchema), notReadBack: z.boolean().optional() }),
);

/**
 * The field-wipe guard as it ran: its limits as typed (the overrides are recorded here; --force is
 * guard.forced) and each field the plan would empty on listings that hold it, with its verdict.
 */
export const wipesSchema = z.object({
  maxWipes: z.string(),
  allowWipe: z.array(z.string()),
  fields: z.array(
    z.object({
      field: z.string(),
      count: z.number(),
      /** Listings the feed matched that hold a value for the field: the base of the percentage. */
      holders: z.number(),
      verdict: z.enum(['refused', 'allowed', 'within']),
      samples: z.array(sampleSchema),
    }),
  ),
});
