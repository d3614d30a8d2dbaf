/**
 * The display policy (src/domain/display-policy) applied to a feed's records, in the row pipeline
 * every feed kind goes through (files, URLs, RESO replication): so no mapping, profile or mode can
 * send what the MLS withholds. Per record, before the mapping reads it, withheld members are
 * blanked (a column, template or ExtensionColumn naming one yields nothing); after it, the
 * record's own flags blank fields, Description is taken from PublicRemarks, and the attribution
 * is added.
 */
import { filledBit, isEmptyValue } from '../domain/field-changes.js';
import { countNotPublished, countWithheld, emptyDisplayReport, type DisplayReport } from '../domain/display-policy/display-report.js';
import { matchesFieldPattern } from '../domain/display-policy/field-names.js';
import { compileAttribution, flagBlanks, notPublished, type MemberReader } from '../domain/display-policy/listing-rules.js';
import { ATTRIBUTION_KEY, displayInForce, type DisplayInForce, type DisplayPolicy } from '../domain/display-policy/policy.js';
import { LISTING_FIELD_NAMES, listingFieldsSchema, type ListingFieldName, type ListingFields } from '../domain/listing.js';
import type { FieldRule } from './record-mapping.js';
import type { Column, SourceColumns, SourceRecord } from './source-record.js';
import { toText } from './values.js';

/** The policy a feed is read under and the instant it is read at (plain data: it crosses to the feed's worker thread). */
export interface DisplaySettings {
  /** Absent: the defaults (RESO flags, restricted fields, the default attribution). */
  policy?: DisplayPolicy;
  /** Epoch ms: which dated rules are in force. */
  now: number;
}

export interface DisplayStep {
  readonly report: DisplayReport;
  readonly inForce: DisplayInForce;
  /** The record with every withheld member blanked: the same record when it has none. */
  clean(record: SourceRecord): SourceRecord;
  /** Why the record may not be published ("InternetEntireListingDisplayYN false: …"), or undefined. */
  notPublished(record: SourceRecord): { reason: string; detail: string } | undefined;
  /**
   * Applies the rules to the listing made of `cleaned` (in place). Returns the bits (filledBit) of the
   * fields the record's flags blank, or a rejection when the policy requires an attribution it lacks.
   */
  finish(listing: ListingFields, cleaned: SourceRecord): { instructed: number } | { reject: { field: string; reason: string } };
}

const OPTIONAL_FIELDS: ReadonlySet<ListingFieldName> = new Set(
  LISTING_FIELD_NAMES.filter((field) => listingFieldsSchema.shape[field].safeParse(undefined).success),
);

const PUBLIC_REMARKS = 'PublicRemarks';

/** Builds the step for a feed whose columns are `columns` and whose mapping's rules are `rules`. */
export function displayStep(settings: DisplaySettings | undefined, columns: SourceColumns, rules: readonly FieldRule[]): DisplayStep {
  const now = settings?.now ?? 0;
  const inForce = displayInForce(settings?.policy, now);
  const report = emptyDisplayReport();
  if (inForce.maxStaleHours !== undefined) report.maxStaleHours = inForce.maxStaleHours;
  const withheldWhy = (name: string): string | undefined => inForce.withhold.find((field) => matchesFieldPattern(field.name, name))?.why;

  // CSV rows: the withheld columns are known from the header. JSON records: by member name, once per name seen.
  const csvWithheld = columns.names.flatMap((name, index) => {
    const why = withheldWhy(name);
    return why === undefined ? [] : [{ index, name, why }];
  });
  const memberWhy = new Map<string, string | null>();
  const whyOfMember = (name: string): string | null => {
    let why = memberWhy.get(name);
    if (why === undefined) memberWhy.set(name, (why = withheldWhy(name) ?? null));
    return why;
  };
  let pending: Array<{ name: string; why: string }> = [];

  const clean = (record: SourceRecord): SourceRecord => {
    pending = [];
    if (Array.isArray(record)) {
      const cells = record as readonly unknown[];
      let copy: unknown[] | undefined;
      for (const { index, name, why } of csvWithheld) {
        if (isEmptyValue(cells[index])) continue;
        (copy ??= [...cells])[index] = '';
        pending.push({ name, why });
      }
      return copy ?? cells;
    }
    let copy: Record<string, unknown> | undefined;
    const members = record as Readonly<Record<string, unknown>>;
    for (const name in members) {
      const why = whyOfMember(name);
      if (why === null || isEmptyValue(members[name])) continue;
      copy ??= { ...members };
      // Why undefined rather than delete: a deleted member turns the copy into a slow dictionary object.
      copy[name] = undefined;
      pending.push({ name, why });
    }
    return copy ?? record;
  };

  // Members the rules read by name, looked up once (a JSON column reads its member even when the first record lacks it).
  const lookups = new Map<string, Column | undefined>();
  const readerOf =
    (record: SourceRecord): MemberReader =>
    (name) => {
      if (!lookups.has(name)) lookups.set(name, columns.optional(name));
      return lookups.get(name)?.get(record);
    };

  // Why Description is re-read only when the mapping took it elsewhere: the reso profile already reads PublicRemarks.
  const description = rules.find((rule) => rule.field === 'Description');
  const remarksColumn = columns.find(PUBLIC_REMARKS);
  const rereadDescription = remarksColumn !== undefined && description?.column?.toLowerCase() !== PUBLIC_REMARKS.toLowerCase();
  const attributionOf = compileAttribution(inForce.attribution);
  const shapeWithheld = LISTING_FIELD_NAMES.filter((field) => OPTIONAL_FIELDS.has(field) && withheldWhy(field) !== undefined);

  const finish: DisplayStep['finish'] = (listing, cleaned) => {
    const read = readerOf(cleaned);
    const fields = listing as Record<string, unknown>;
    if (rereadDescription) {
      const remarks = toText(read(PUBLIC_REMARKS));
      if (remarks === undefined) delete fields.Description;
      else fields.Description = remarks;
    }
    const attribution = attributionOf(read);
    if ('missing' in attribution && inForce.requireAttribution)
      return {
        reject: {
          field: attribution.missing,
          reason:
            `attribution: no ${attribution.missing}, which the display policy's attribution ` +
            `"${inForce.attribution}" names (requireAttribution is on)`,
        },
      };
    for (const { name, why } of pending) countWithheld(report, name, why);
    let instructed = 0;
    for (const blank of flagBlanks(read))
      for (const field of blank.fields) {
        if (!isEmptyValue(fields[field])) countWithheld(report, field, blank.why);
        delete fields[field];
        instructed |= filledBit(field);
      }
    for (const field of shapeWithheld) {
      if (isEmptyValue(fields[field])) continue;
      countWithheld(report, field, withheldWhy(field) as string);
      delete fields[field];
    }
    if ('missing' in attribution) report.unattributed += 1;
    else {
      report.attributed += 1;
      const others = (listing.ExtensionColumn ?? []).filter((entry) => entry.Key !== ATTRIBUTION_KEY);
      listing.ExtensionColumn = [...others, { Key: ATTRIBUTION_KEY, value: attribution.text }];
    }
    return { instructed };
  };

  return {
    report,
    inForce,
    clean,
    notPublished: (record) => {
      const verdict = notPublished(readerOf(record), inForce, now);
      if (verdict !== undefined) countNotPublished(report, verdict.reason);
      return verdict;
    },
    finish,
  };
}
