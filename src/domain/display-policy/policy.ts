/**
 * The MLS display policy (IDX rules) as a value: what a chatbot answering the public may show of
 * an MLS's listings, who must be named, and dated changes the MLS announced. Pure: the policy in
 * force is a function of the policy and `now` (passed in; the domain has no clock).
 */
import { z } from 'zod';

/** The attribution a published listing carries when the policy names none. */
export const DEFAULT_ATTRIBUTION = 'Listing courtesy of {ListOfficeName}';

/** The ExtensionColumn item's Key the attribution is written under. */
export const ATTRIBUTION_KEY = 'Attribution';

/**
 * Source fields restricted from public view whatever the policy says (NAR's model IDX policy: agent-
 * only remarks, showing instructions, compensation offers). A trailing `*` names every field that
 * starts with the text before it.
 */
export const RESTRICTED_FIELDS = ['PrivateRemarks', 'ShowingInstructions', 'ShowingContact*', 'BuyerBrokerageCompensation*'] as const;

/** The settings a rule may change from its `from` on (everything but `rules`). */
const settingsShape = {
  attribution: z.string().min(1).optional(),
  requireAttribution: z.boolean().optional(),
  withhold: z.array(z.string().min(1)).optional(),
  statuses: z.array(z.string().min(1)).optional(),
  soldWithinDays: z.number().int().min(0).optional(),
  maxStaleHours: z.number().positive().optional(),
};

export const displayRuleSchema = z.object({ from: z.string().min(1), ...settingsShape }).strict();
export type DisplayRule = z.infer<typeof displayRuleSchema>;

/** The policy as read from `--display-policy FILE` (YAML) or a fleet source's `displayPolicy`: plain JSON (a schedule stores it). */
export const displayPolicySchema = z.object({ ...settingsShape, rules: z.array(displayRuleSchema).optional() }).strict();
export type DisplayPolicy = z.infer<typeof displayPolicySchema>;

/** The keys of a policy and of a rule, in the order the docs list them. */
export const POLICY_KEYS = [
  'attribution',
  'requireAttribution',
  'withhold',
  'statuses',
  'soldWithinDays',
  'maxStaleHours',
  'rules',
] as const;
export const RULE_KEYS = ['from', 'attribution', 'requireAttribution', 'withhold', 'statuses', 'soldWithinDays', 'maxStaleHours'] as const;

/** One withheld field with why: "restricted from public view", "the policy's withhold", "rule from 2027-01-15". */
export interface WithheldField {
  name: string;
  why: string;
}

/** The policy in force at one instant. */
export interface DisplayInForce {
  attribution: string;
  requireAttribution: boolean;
  withhold: WithheldField[];
  statuses?: string[];
  soldWithinDays?: number;
  maxStaleHours?: number;
}

export const RESTRICTED_WHY = 'restricted from public view';
export const POLICY_WHY = "the policy's withhold";

/**
 * When a rule's `from` starts (epoch ms), or undefined when it names no instant. A bare date is
 * that day's midnight UTC: the notice names a day, and a run on that day (any zone) applies it.
 */
export function ruleStart(from: string): number | undefined {
  const text = /^\d{4}-\d{2}-\d{2}$/.test(from) ? `${from}T00:00:00Z` : from;
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The rules of `policy` in force at `now` (their `from` passed), oldest first. */
function rulesInForce(policy: DisplayPolicy, now: number): DisplayRule[] {
  return (policy.rules ?? [])
    .map((rule) => ({ rule, start: ruleStart(rule.from) ?? Number.POSITIVE_INFINITY }))
    .filter(({ start }) => start <= now)
    .sort((a, b) => a.start - b.start)
    .map(({ rule }) => rule);
}

/** The rules that take effect after `now`, soonest first: what `sources show` announces. */
export function comingRules(policy: DisplayPolicy | undefined, now: number): DisplayRule[] {
  return (policy?.rules ?? [])
    .map((rule) => ({ rule, start: ruleStart(rule.from) ?? Number.POSITIVE_INFINITY }))
    .filter(({ start }) => start > now && Number.isFinite(start))
    .sort((a, b) => a.start - b.start)
    .map(({ rule }) => rule);
}

/**
 * The policy in force at `now`: the defaults, the policy's own settings, then each rule whose
 * `from` has passed, oldest first (a later rule's setting wins; withhold lists add up, since an
 * MLS notice restricts more, it never re-allows a restricted field).
 */
export function displayInForce(policy: DisplayPolicy | undefined, now: number): DisplayInForce {
  const inForce: DisplayInForce = {
    attribution: DEFAULT_ATTRIBUTION,
    requireAttribution: false,
    withhold: RESTRICTED_FIELDS.map((name) => ({ name, why: RESTRICTED_WHY })),
  };
  const apply = (settings: Omit<DisplayRule, 'from'>, why: string): void => {
    if (settings.attribution !== undefined) inForce.attribution = settings.attribution;
    if (settings.requireAttribution !== undefined) inForce.requireAttribution = settings.requireAttribution;
    if (settings.statuses !== undefined) inForce.statuses = [...settings.statuses];
    if (settings.soldWithinDays !== undefined) inForce.soldWithinDays = settings.soldWithinDays;
    if (settings.maxStaleHours !== undefined) inForce.maxStaleHours = settings.maxStaleHours;
    for (const name of settings.withhold ?? [])
      if (!inForce.withhold.some((field) => field.name.toLowerCase() === name.toLowerCase())) inForce.withhold.push({ name, why });
  };
  if (policy === undefined) return inForce;
  apply(policy, POLICY_WHY);
  for (const rule of rulesInForce(policy, now)) apply(rule, `rule from ${rule.from}`);
  return inForce;
}

/** One line per change a coming rule makes ("from 2027-01-15: withhold ListAgentEmail"). */
export function describeRule(rule: DisplayRule): string {
  const parts: string[] = [];
  if (rule.withhold !== undefined) parts.push(`withhold ${rule.withhold.join(', ')}`);
  if (rule.attribution !== undefined) parts.push(`attribution "${rule.attribution}"`);
  if (rule.requireAttribution !== undefined) parts.push(`requireAttribution ${String(rule.requireAttribution)}`);
  if (rule.statuses !== undefined) parts.push(`statuses ${rule.statuses.join(', ')}`);
  if (rule.soldWithinDays !== undefined) parts.push(`soldWithinDays ${rule.soldWithinDays}`);
  if (rule.maxStaleHours !== undefined) parts.push(`maxStaleHours ${rule.maxStaleHours}`);
  return `from ${rule.from}: ${parts.length === 0 ? 'no change' : parts.join('; ')}`;
}
