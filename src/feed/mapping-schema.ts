/**
 * The mapping file: JSON that starts from a profile (or from nothing) and renames columns,
 * sets constants and defaults, maps enum values, parses money, converts units and puts extra
 * columns into ExtensionColumn, builds text fields from patterns. Loading validates it and reports
 * every problem at once.
 * The format is documented in docs/feeds-and-mappings.md, "Mapping files".
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { LISTING_FIELD_NAMES, listingFieldsSchema, type ListingFieldName } from '../domain/listing.js';
import { mappingInvalid } from './feed-error.js';
import { parseTemplate, type TemplatePart } from './field-template.js';
import { fieldNamed, isNumericField, valueKindOf } from './value-kinds.js';
import { PROFILE_NAMES } from './record-mapping.js';
import { issueLines } from '../shared/zod-issues.js';
import { jsonErrorText } from '../shared/json-position.js';
import { didYouMean } from '../shared/nearest-names.js';

export const AREA_UNIT_NAMES = ['sqft', 'sqm', 'acres', 'hectares'] as const;
export type AreaUnitName = (typeof AREA_UNIT_NAMES)[number];

const fieldValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.unknown()), z.null()]);

export const mappingFileSchema = z.strictObject({
  $comment: z.string().optional(),
  description: z.string().optional(),
  profile: z.enum(PROFILE_NAMES).nullable().optional(),
  columns: z.record(z.string(), z.string().trim().min(1, 'a source column name is required')).optional(),
  constants: z.record(z.string(), fieldValue).optional(),
  defaults: z.record(z.string(), fieldValue).optional(),
  enums: z.record(z.string(), z.record(z.string(), z.string())).optional(),
  money: z.array(z.string()).optional(),
  units: z
    .record(
      z.string(),
      z.union([z.strictObject({ from: z.enum(AREA_UNIT_NAMES), to: z.enum(AREA_UNIT_NAMES) }), z.number().positive()], {
        error: `expected {"from": unit, "to": unit} with units ${AREA_UNIT_NAMES.join(', ')}, or a positive factor`,
      }),
    )
    .optional(),
  extension: z.array(z.string().trim().min(1, 'a source column name is required')).optional(),
  templates: z
    .record(z.string(), z.string().trim().min(1, 'a pattern such as "https://acme.example/homes/{ListingId}" is required'))
    .optional(),
});

type RawMappingFile = z.infer<typeof mappingFileSchema>;

/** A validated mapping file, field names canonical ("bedrooms" → "Bedrooms"), unit conversions as factors. */
export interface MappingFile {
  readonly path: string;
  /** Present when the file says which profile to start from (null: from nothing). */
  readonly profile?: (typeof PROFILE_NAMES)[number] | null;
  readonly columns: ReadonlyMap<ListingFieldName, string>;
  readonly constants: ReadonlyMap<ListingFieldName, unknown>;
  readonly defaults: ReadonlyMap<ListingFieldName, unknown>;
  readonly enums: ReadonlyMap<ListingFieldName, ReadonlyMap<string, string>>;
  readonly money: ReadonlySet<ListingFieldName>;
  readonly units: ReadonlyMap<ListingFieldName, number>;
  readonly extension: readonly string[];
  /** Text fields built from a pattern over the record's columns (field-template.ts). */
  readonly templates: ReadonlyMap<ListingFieldName, { readonly text: string; readonly parts: readonly TemplatePart[] }>;
}

const FIELD_SECTIONS: ReadonlySet<string> = new Set(['columns', 'constants', 'defaults', 'enums', 'units', 'templates']);

const SQFT_PER_UNIT: Readonly<Record<AreaUnitName, number>> = {
  sqft: 1,
  sqm: 10.763910416709722,
  acres: 43560,
  hectares: 107639.10416709722,
};

function describeValueProblem(issues: readonly z.core.$ZodIssue[]): string {
  const issue = issues[0];
  if (issue === undefined) return 'invalid value';
  if (issue.code === 'invalid_value') return `expected one of ${issue.values.map(String).join(', ')}`;
  if (issue.code === 'invalid_type') return `expected ${issue.expected === 'number' ? 'a number' : issue.expected}`;
  return issue.message;
}

/** Checks the parts zod cannot: field names, value types per field, conflicts. */
function canonicalise(path: string, raw: RawMappingFile, problems: string[]): MappingFile {
  const field = (where: string, name: string): ListingFieldName | undefined => {
    const found = fieldNamed(name);
    if (found === undefined) problems.push(`${where}: '${name}' is not a listing field${didYouMean(name, LISTING_FIELD_NAMES)}`);
    return found;
  };
  const checkValue = (where: string, target: ListingFieldName, value: unknown): void => {
    const result = listingFieldsSchema.shape[target].safeParse(value);
    if (!result.success) problems.push(`${where}: ${describeValueProblem(result.error.issues)}, got ${JSON.stringify(value)}`);
  };
  const fieldMap = <T>(
    section: string,
    record: Record<string, T> | undefined,
    check?: (where: string, target: ListingFieldName, value: T) => void,
  ): Map<ListingFieldName, T> => {
    const out = new Map<ListingFieldName, T>();
    for (const [name, value] of Object.entries(record ?? {})) {
      const target = field(`${section}.${name}`, name);
      if (target === undefined) continue;
      check?.(`${section}.${name}`, target, value);
      out.set(target, value);
    }
    return out;
  };
  const columns = fieldMap('columns', raw.columns);
  const constants = fieldMap('constants', raw.constants, checkValue);
  const defaults = fieldMap('defaults', raw.defaults, checkValue);
  for (const target of constants.keys()) {
    if (columns.has(target)) problems.push(`${target}: set by both "columns" and "constants" (keep one)`);
  }
  const enums = new Map<ListingFieldName, ReadonlyMap<string, string>>();
  for (const [target, table] of fieldMap('enums', raw.enums)) {
    const lookup = new Map<string, string>();
    for (const [from, to] of Object.entries(table)) {
      checkValue(`enums.${target}.${from}`, target, to);
      lookup.set(from.trim().toLowerCase(), to);
    }
    enums.set(target, lookup);
  }
  const money = new Set<ListingFieldName>();
  for (const name of raw.money ?? []) {
    const target = field(`money`, name);
    if (target === undefined) continue;
    if (!isNumericField(target)) problems.push(`money: ${target} is not a numeric field`);
    money.add(target);
  }
  const units = new Map<ListingFieldName, number>();
  for (const [target, unit] of fieldMap('units', raw.units)) {
    if (!isNumericField(target)) problems.push(`units.${target}: ${target} is not a numeric field`);
    units.set(target, typeof unit === 'number' ? unit : SQFT_PER_UNIT[unit.from] / SQFT_PER_UNIT[unit.to]);
  }
  const templates = new Map<ListingFieldName, { text: string; parts: readonly TemplatePart[] }>();
  for (const [target, text] of fieldMap('templates', raw.templates)) {
    if (valueKindOf(target) !== 'text') problems.push(`templates.${target}: ${target} is not a text field`);
    for (const [section, set] of [
      ['columns', columns],
      ['constants', constants],
    ] as const)
      if (set.has(target)) problems.push(`${target}: set by both "${section}" and "templates" (keep one)`);
    const parsed = parseTemplate(text);
    if ('problem' in parsed) problems.push(`templates.${target}: ${parsed.problem}`);
    else templates.set(target, { text, parts: parsed.parts });
  }
  const base = { path, columns, constants, defaults, enums, money, units, extension: raw.extension ?? [], templates };
  return raw.profile === undefined ? base : { ...base, profile: raw.profile };
}

/** Parses and validates mapping-file text; throws MAPPING_INVALID listing every problem. */
export function parseMappingFile(path: string, text: string): MappingFile {
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (thrown) {
    throw mappingInvalid(path, [`not valid JSON: ${jsonErrorText(text, thrown)}`]);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw mappingInvalid(path, ['it must be a JSON object']);
  // Each member is checked on its own, so one bad section does not hide the problems of the others.
  const problems: string[] = [];
  const sections: Record<string, unknown> = {};
  const shape: Readonly<Record<string, z.ZodType>> = mappingFileSchema.shape;
  for (const [key, value] of Object.entries(json as Record<string, unknown>)) {
    const schema = shape[key];
    if (schema === undefined) {
      problems.push(`unknown member '${key}' (expected ${Object.keys(shape).join(', ')})`);
      continue;
    }
    const result = schema.safeParse(value);
    if (result.success) {
      sections[key] = result.data;
      continue;
    }
    problems.push(...issueLines(result.error.issues, { prefix: [key] }));
    // The section is dropped, but its field names are still checked so their mistakes show up too.
    if (FIELD_SECTIONS.has(key) && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const name of Object.keys(value))
        if (fieldNamed(name) === undefined)
          problems.push(`${key}.${name}: '${name}' is not a listing field${didYouMean(name, LISTING_FIELD_NAMES)}`);
    }
  }
  const file = canonicalise(path, mappingFileSchema.parse(sections), problems);
  if (problems.length > 0) {
    const unknownField = problems.some((text) => text.includes('is not a listing field'));
    throw mappingInvalid(path, problems, unknownField ? `listing fields are ${LISTING_FIELD_NAMES.join(', ')}` : undefined);
  }
  return file;
}

/** Reads a mapping file from disk; a missing file is MAPPING_INVALID too. */
export async function loadMappingFile(path: string): Promise<MappingFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (thrown) {
    throw mappingInvalid(path, [`cannot read it (${(thrown as NodeJS.ErrnoException).code ?? 'error'})`]);
  }
  return parseMappingFile(path, text);
}
