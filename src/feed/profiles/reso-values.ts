/**
 * RESO Data Dictionary value conversions: StandardStatus, lease types, areas and their units,
 * association-fee frequencies, Media. Pure functions of member values.
 */
import type { AREA_UNITS, Status } from '../../domain/listing.js';
import { toNumber, toText } from '../values.js';

/** Lower-cased, without spaces/dashes/underscores: "Active Under Contract" = "ActiveUnderContract". */
export const squash = (text: string): string => text.replace(/[\s_-]+/g, '').toLowerCase();

export const LISTED_STATUSES: ReadonlyMap<string, Status> = new Map([
  ['active', 'Active'],
  ['activeundercontract', 'Active'],
  ['comingsoon', 'PreOnMarket'],
  ['closed', 'Sold'],
]);

/** Statuses of listings that are off the market: excluded from the feed, so deleted if present. */
export const UNLISTED_STATUSES: ReadonlySet<string> = new Set([
  'withdrawn',
  'expired',
  'canceled',
  'cancelled',
  'delete',
  'hold',
  'incomplete',
]);

export const LEASE_TYPES: ReadonlySet<string> = new Set(['residentiallease', 'commerciallease']);

const SQFT_PER: Readonly<Record<string, number>> = {
  squarefeet: 1,
  sqft: 1,
  squaremeters: 10.763910416709722,
  squaremetres: 10.763910416709722,
  sqm: 10.763910416709722,
  acres: 43560,
  acre: 43560,
  hectares: 107639.10416709722,
};

/** Square feet in one of `unit` (RESO LotSizeUnits / LivingAreaUnits), undefined for an unknown unit. */
export function squareFeetPer(unit: string): number | undefined {
  return SQFT_PER[squash(unit)];
}

export type AreaUnit = (typeof AREA_UNITS)[number];

/** The write shape's AreaUnit (an AreaUnit, or the text as given) for a RESO LivingAreaUnits value (Square Feet when absent). */
export function areaUnitOf(value: unknown): string {
  const text = toText(value);
  if (text === undefined) return 'Square Feet';
  const per = squareFeetPer(text);
  return per === 1 ? 'Square Feet' : per === SQFT_PER.squaremeters ? 'Square Meters' : text;
}

/** Months covered by one payment, per RESO AssociationFeeFrequency. */
const MONTHS_PER_PAYMENT: Readonly<Record<string, number>> = {
  monthly: 1,
  annually: 12,
  annual: 12,
  yearly: 12,
  quarterly: 3,
  semiannually: 6,
  semiannual: 6,
  bimonthly: 2,
  weekly: 12 / 52,
  biweekly: 12 / 26,
  semimonthly: 0.5,
  daily: 12 / 365,
};

/**
 * Legal Data Dictionary 2.0 FeeFrequency values that are no period: a one-time fee and a seasonal
 * one have no monthly amount, so HOAMonth is left empty (with a note), never rejected.
 */
const NOT_PERIODIC: ReadonlySet<string> = new Set(['onetime', 'seasonal']);

/** Why a fee at `frequency` has no monthly amount (a legal, non-periodic frequency), or undefined. */
export function notMonthly(frequency: unknown): string | undefined {
  const text = toText(frequency);
  return text !== undefined && NOT_PERIODIC.has(squash(text)) ? `AssociationFeeFrequency '${text}' has no monthly amount` : undefined;
}

/** The monthly amount of a fee paid at `frequency` (Monthly when absent); undefined when not periodic; NaN for an unknown frequency. */
export function monthlyFee(amount: unknown, frequency: unknown): number | undefined {
  const fee = toNumber(amount);
  if (fee === undefined || Number.isNaN(fee)) return fee;
  const text = toText(frequency);
  if (text === undefined) return fee;
  if (notMonthly(text) !== undefined) return undefined;
  const months = MONTHS_PER_PAYMENT[squash(text)];
  return months === undefined ? Number.NaN : Math.round((fee / months) * 100) / 100;
}

interface MediaItem {
  readonly url: string;
  readonly order: number;
}

/** Whether a RESO Media item is a photo (its MediaCategory, or else its MimeType, says so): what Images holds. */
export function isPhotoItem(entry: Readonly<Record<string, unknown>>): boolean {
  const category = toText(entry.MediaCategory);
  const mime = toText(entry.MimeType);
  return category !== undefined ? squash(category) === 'photo' : mime === undefined || mime.startsWith('image/');
}

/** Photo URLs of a RESO Media array, in `Order`; other media (documents, videos) are left out. */
export function photoUrls(media: unknown): string[] | undefined {
  if (!Array.isArray(media)) return undefined;
  const photos: MediaItem[] = [];
  media.forEach((item: unknown, index) => {
    if (typeof item !== 'object' || item === null) return;
    const entry = item as Readonly<Record<string, unknown>>;
    const url = toText(entry.MediaURL);
    if (url === undefined || !isPhotoItem(entry)) return;
    const order = toNumber(entry.Order);
    photos.push({ url, order: order === undefined || Number.isNaN(order) ? Number.MAX_SAFE_INTEGER - media.length + index : order });
  });
  photos.sort((a, b) => a.order - b.order);
  return photos.length === 0 ? undefined : photos.map((photo) => photo.url);
}
