/**
 * The display policy's part of a run's summary (src/domain/display-policy/display-report.ts): per
 * field the listings that had it withheld and why, the records not published and why, the
 * attribution counts, and the fields the records' flags blanked on listings the chatbot holds.
 */
import { z } from 'zod';
import { fieldChangesSchema } from './field-summary.js';

const count = z.number();

export const displaySummarySchema = z.object({
  /** Field → why (the rule) → listings. */
  withheld: z.record(z.string(), z.record(z.string(), count)),
  /** Why → records not published (held copies are deleted). */
  notPublished: z.record(z.string(), count),
  attributed: count,
  unattributed: count,
  /** Per field, held listings the plan blanks because the record's flag says so: not wipes (the guard lets them pass). */
  blanked: fieldChangesSchema,
  /** The policy's maxStaleHours: the chatbot's health is `stale` past it. */
  maxStaleHours: count.optional(),
  /** Dated rules not yet in force when the run was read: "from 2027-01-15: withhold ListAgentEmail". */
  coming: z.array(z.string()).optional(),
});

export type DisplaySummary = z.infer<typeof displaySummarySchema>;
