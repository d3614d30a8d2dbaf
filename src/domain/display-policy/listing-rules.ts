/**
 * The display rules applied to one source record (pure): whether it may be published at all,
 * which write-shape fields its own flags withhold, and the attribution it carries. The record is
 * read through `read(name)` (a member of a JSON record, a column of a CSV row), so the rules do not
 * care which reader or mapping made the listing.
 */
import type { ListingFieldName } from '../listing.js';
import type { DisplayInForce } from './policy.js';

export type MemberReader = (name: string) => unknown;

/** A not-published reason's category, as the reports count them (one per rule of the MLS). */
export const NOT_PUBLISHED = {
  optedOut: 'InternetEntireListingDisplayYN false',
  notIdx: 'MlgCanUse without IDX',
  status: "status not in the policy's statuses",
  sold: 'sold longer ago than soldWithinDays',
} as const;

/** A field the record's own flag withholds, and which flag. */
export interface FlagBlank {
  fields: readonly ListingFieldName[];
  why: string;
}

const ADDRESS_FIELDS: readonly ListingFieldName[] = ['Address', 'Latitude', 'Longitude'];
const VALUATION_FIELDS: readonly ListingFieldName[] = ['ZestimatePrice'];
export const ADDRESS_WHY = 'InternetAddressDisplayYN false';
export const VALUATION_WHY = 'InternetAutomatedValuationDisplayYN false';

/** A RESO YN flag that says no: false, or its text forms in a CSV ("false", "N", "No", "0"). */
export function saysNo(value: unknown): boolean {
  if (value === false || value === 0) return true;
  if (typeof value !== 'string') return false;
  const text = value.trim().toLowerCase();
  return text === 'false' || text === 'n' || text === 'no' || text === '0';
}

/** MlgCanUse's uses (["IDX","VOW"], or "IDX,VOW" in a CSV), or undefined when the record does not say. */
function usesOf(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.map((item) => String(item).trim().toUpperCase());
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  return value.split(/[,;|]/).map((item) => item.trim().toUpperCase());
}

const squash = (text: string): string => text.replace(/[\s_-]+/g, '').toLowerCase();
/** The policy's status words as the feed's: the write shape says Sold where RESO says Closed. */
const STATUS_ALIASES: Readonly<Record<string, string>> = { sold: 'closed' };
const statusKey = (text: string): string => STATUS_ALIASES[squash(text)] ?? squash(text);

const DAY_MS = 86_400_000;

function soldTooLongAgo(read: MemberReader, days: number, now: number): boolean {
  const status = read('StandardStatus');
  if (typeof status !== 'string' || statusKey(status) !== 'closed') return false;
  const closed = read('CloseDate');
  if (typeof closed !== 'string') return false;
  const at = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(closed.trim()) ? `${closed.trim()}T00:00:00Z` : closed.trim());
  return !Number.isNaN(at) && now - at > days * DAY_MS;
}

/** Why the record may not be shown to the public at all (a NOT_PUBLISHED category with its detail), or undefined. */
export function notPublished(read: MemberReader, inForce: DisplayInForce, now: number): { reason: string; detail: string } | undefined {
  if (saysNo(read('InternetEntireListingDisplayYN')))
    return { reason: NOT_PUBLISHED.optedOut, detail: 'the seller opted out of internet display' };
  const uses = usesOf(read('MlgCanUse'));
  if (uses !== undefined && !uses.includes('IDX'))
    return { reason: NOT_PUBLISHED.notIdx, detail: `licensed for ${uses.length === 0 ? 'no use' : uses.join(', ')} only, not IDX display` };
  const status = read('StandardStatus');
  if (inForce.statuses !== undefined && typeof status === 'string' && status.trim() !== '') {
    const key = statusKey(status);
    if (!inForce.statuses.some((allowed) => statusKey(allowed) === key))
      return { reason: NOT_PUBLISHED.status, detail: `StandardStatus ${status} is not among ${inForce.statuses.join(', ')}` };
  }
  if (inForce.soldWithinDays !== undefined && soldTooLongAgo(read, inForce.soldWithinDays, now))
    return { reason: NOT_PUBLISHED.sold, detail: `closed ${String(read('CloseDate'))}, more than ${inForce.soldWithinDays} days ago` };
  return undefined;
}

/** The write-shape fields the record's own flags withhold. */
export function flagBlanks(read: MemberReader): FlagBlank[] {
  const blanks: FlagBlank[] = [];
  if (saysNo(read('InternetAddressDisplayYN'))) blanks.push({ fields: ADDRESS_FIELDS, why: ADDRESS_WHY });
  if (saysNo(read('InternetAutomatedValuationDisplayYN'))) blanks.push({ fields: VALUATION_FIELDS, why: VALUATION_WHY });
  return blanks;
}

const PLACEHOLDER = /\{([^{}]+)\}/g;

function memberText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '').trim();
  return text === '' ? undefined : text;
}

export type Attribution = (read: MemberReader) => { text: string } | { missing: string };

/** `template` split once into its text and fields: what it gives for a record, or the first field it names that the record lacks. */
export function compileAttribution(template: string): Attribution {
  const texts = template.split(PLACEHOLDER);
  return (read) => {
    let text = texts[0] as string;
    // split() with a capture group alternates text, field, text, …
    for (let i = 1; i < texts.length; i += 2) {
      const field = (texts[i] as string).trim();
      const value = memberText(read(field));
      if (value === undefined) return { missing: field };
      text += value + (texts[i + 1] as string);
    }
    return { text };
  };
}
