/**
 * The field-wipe guard's options, shared by `sync` and `schedule add`: --max-wipes and
 * --allow-wipe, declared once and checked with the other sync options (sync-options.ts), so a
 * schedule stores them with its request.
 */
import type { Command } from 'commander';
import { z } from 'zod';
import { parseGuardLimit } from '../../domain/guard.js';
import { allowWipeProblem, parseAllowWipe } from '../../domain/wipe-guard.js';
import type { SyncRequest } from '../../sync/sync-request.js';

/** Optional: commands that build a sync request themselves (the demo) give none and get the defaults. */
export interface WipeFlags {
  maxWipes?: string;
  /** Every --allow-wipe given, as typed (each may be a comma list). */
  allowWipe?: string[];
}

export function addWipeOptions(command: Command): Command {
  return command
    .option(
      '--max-wipes <n|p%>',
      'refuse when a field would be emptied on more than this count or share of the listings that hold it (at least 5)',
      '10%',
    )
    .option(
      '--allow-wipe <fields>',
      'accept emptying these fields whatever --max-wipes says (repeatable, or a comma list: --allow-wipe SalePrice,HOAMonth)',
      (value: string, previous: string[]) => [...previous, value],
      [],
    );
}

/** The wipe flags' checks, as members of the sync options' schema (every bad flag is reported together). */
export const wipeFlagsShape = {
  maxWipes: z
    .string()
    .refine((text) => {
      try {
        parseGuardLimit(text, '--max-wipes');
        return true;
      } catch {
        return false;
      }
    }, 'must be a whole number of listings (e.g. 25) or a percentage from 0% to 100% (e.g. 10%)')
    .optional(),
  allowWipe: z
    .array(z.string())
    .superRefine((values, ctx) => {
      const problem = allowWipeProblem(values);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
};

/** The request's wipe settings (the flags were checked with wipeFlagsShape). */
export function wipeRequest(flags: WipeFlags): Pick<SyncRequest, 'maxWipes' | 'allowWipe'> {
  const allowWipe = parseAllowWipe(flags.allowWipe ?? []);
  return { ...(flags.maxWipes === undefined ? {} : { maxWipes: flags.maxWipes }), ...(allowWipe.length === 0 ? {} : { allowWipe }) };
}
