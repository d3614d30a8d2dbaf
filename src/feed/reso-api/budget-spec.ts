/**
 * `--feed-budget` text → the windows of a feed request budget: `2/s,7200/h,40000/d,4GB/h`, or a
 * preset named for the MLS platform whose published limits it holds.
 */
import { UsageError } from '../../shared/errors.js';

/** The limits of one feed budget (the shape the Redis budget in src/store takes); absent windows are unlimited. */
export interface FeedBudgetSpec {
  perSecond?: number;
  perHour?: number;
  perDay?: number;
  /** Response bytes per hour. */
  bytesPerHour?: number;
}

/**
 * Bytes are decimal (1 GB = 10^9): when a platform's "4 GB" means 2^32 bytes, the decimal reading
 * is the smaller one, so the client stays under the limit whichever it means.
 */
const BYTE_UNITS: Readonly<Record<string, number>> = { B: 1, KB: 1e3, MB: 1e6, GB: 1e9 };

/**
 * Published limits, per credential. A contract may grant more or less: the preset is a safe
 * start, the explicit form overrides it. Minute limits are held as whole requests per second
 * (floor(N/60)/s): a rolling second holding at most N/60 means no rolling minute holds more than N.
 */
export const FEED_BUDGET_PRESETS = {
  /** MLS Grid's published limits: 2 requests/s, 7,200/h, 40,000/24 h, 4 GB/h of downloads. */
  'mls-grid': { perSecond: 2, perHour: 7200, perDay: 40_000, bytesPerHour: 4e9 },
  /** Trestle (CoreLogic/Cotality) baseline quota: 7,200 queries/h and 180/min (→ 3/s). */
  trestle: { perSecond: 3, perHour: 7200 },
  /**
   * Bridge Interactive: the default application limit is 5,000 requests/h (its
   * Application-RateLimit-Limit header) and, since August 2024, a burst limit of 1/15 of the
   * hourly limit per minute (333/min → 5/s).
   */
  bridge: { perSecond: 5, perHour: 5000 },
} as const satisfies Readonly<Record<string, FeedBudgetSpec>>;

export type FeedBudgetPreset = keyof typeof FEED_BUDGET_PRESETS;

const ACCEPTED =
  `a preset (${Object.keys(FEED_BUDGET_PRESETS).join(', ')}) or limits joined by commas such as ` +
  `2/s,7200/h,40000/d,4GB/h (requests per s, m, h or d; bytes per h in B, KB, MB or GB)`;

const ITEM = /^(\d+)\s*(B|KB|MB|GB)?\s*\/\s*([smhd])$/i;

function refuse(text: string, why: string): UsageError {
  return new UsageError(`--feed-budget '${text}': ${why}. Give ${ACCEPTED}.`, { accepted: ACCEPTED });
}

interface Limit {
  window: keyof FeedBudgetSpec;
  limit: number;
  /** What a second item may not name again: the time unit, or bytes. */
  slot: string;
}

function parseItem(item: string, text: string): Limit {
  const match = ITEM.exec(item);
  if (match === null) throw refuse(text, `'${item}' is not a limit`);
  const [, digits = '', byteUnit, timeUnit = ''] = match;
  const amount = Number(digits);
  if (!Number.isSafeInteger(amount) || amount <= 0) throw refuse(text, `'${item}' must be a whole number above 0`);
  const unit = timeUnit.toLowerCase();
  if (byteUnit !== undefined) {
    if (unit !== 'h') throw refuse(text, `'${item}': bytes are budgeted per hour only`);
    return { window: 'bytesPerHour', limit: amount * (BYTE_UNITS[byteUnit.toUpperCase()] ?? 1), slot: 'bytes' };
  }
  if (unit === 'm') {
    // Why per second: the budget counts whole requests per rolling second, hour and day; a rolling
    // second holding floor(N/60) keeps every rolling minute at N or fewer.
    if (amount < 60) throw refuse(text, `'${item}': a per-minute limit must be 60/m or more (it is held as whole requests per second)`);
    return { window: 'perSecond', limit: Math.floor(amount / 60), slot: unit };
  }
  const window = unit === 's' ? 'perSecond' : unit === 'h' ? 'perHour' : 'perDay';
  return { window, limit: amount, slot: unit };
}

/** Parses `--feed-budget`; a UsageError naming the accepted forms when the text is neither a preset nor a list of limits. */
export function parseFeedBudget(text: string): FeedBudgetSpec {
  const trimmed = text.trim();
  const name = trimmed.toLowerCase();
  if (Object.hasOwn(FEED_BUDGET_PRESETS, name)) return { ...FEED_BUDGET_PRESETS[name as FeedBudgetPreset] };
  if (trimmed === '') throw refuse(text, 'it is empty');
  const spec: FeedBudgetSpec = {};
  const slots = new Set<string>();
  for (const item of trimmed.split(',').map((part) => part.trim())) {
    const { window, limit, slot } = parseItem(item, text);
    if (slots.has(slot)) throw refuse(text, `'${item}' names a window given before`);
    slots.add(slot);
    // Both 2/s and 180/m land on perSecond: the stricter holds.
    spec[window] = Math.min(spec[window] ?? Infinity, limit);
  }
  return spec;
}

/** What a preset's platform rules say of media: the User-Agent its downloads must send, and whether hot-linking is forbidden. */
export interface FeedMediaRules {
  userAgent?: 'token';
  mustHost: boolean;
}

/**
 * MLS Grid's rules: subscribers host media themselves, never hot-link it; since 2026-06-01 a media
 * download may be denied unless its User-Agent is the OAuth access token.
 */
const MEDIA_RULES: Partial<Record<FeedBudgetPreset, FeedMediaRules>> = { 'mls-grid': { userAgent: 'token', mustHost: true } };

/** The media rules of `--feed-budget` text when it names a preset that has some. */
export function feedMediaRules(text: string | undefined): FeedMediaRules | undefined {
  const name = text?.trim().toLowerCase();
  return name !== undefined && Object.hasOwn(MEDIA_RULES, name) ? MEDIA_RULES[name as FeedBudgetPreset] : undefined;
}
