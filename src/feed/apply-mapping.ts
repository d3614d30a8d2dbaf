/**
 * Applies a mapping file on top of a profile's record mapping (or on nothing): every setting
 * becomes a rule or wraps one, once, before the first record.
 */
import type { ListingFieldName } from '../domain/listing.js';
import { mappingInvalid } from './feed-error.js';
import { templateRule } from './field-template.js';
import { valueKindOf, READERS } from './value-kinds.js';
import type { MappingFile } from './mapping-schema.js';
import { columnRule, computedRule, constantRule, ruleFor, setRule, type FieldRule, type RecordMapping } from './record-mapping.js';
import type { Column, SourceColumns, SourceRecord } from './source-record.js';
import { toMoney, toText } from './values.js';

function withRead(rule: FieldRule, read: (record: SourceRecord) => unknown): FieldRule {
  return { ...rule, read };
}

function enumRule(rule: FieldRule, table: ReadonlyMap<string, string>): FieldRule {
  const inner = rule.read;
  return withRead(rule, (record) => {
    const value = inner(record);
    return typeof value === 'string' ? (table.get(value.trim().toLowerCase()) ?? value) : value;
  });
}

function unitRule(rule: FieldRule, factor: number): FieldRule {
  const inner = rule.read;
  return withRead(rule, (record) => {
    const value = inner(record);
    return typeof value === 'number' ? Math.round(value * factor * 100) / 100 : value;
  });
}

function extensionRule(existing: FieldRule | undefined, sources: readonly Column[]): FieldRule {
  const read = (record: SourceRecord): unknown => {
    const before = existing?.read(record);
    const entries = Array.isArray(before) ? [...(before as unknown[])] : [];
    for (const column of sources) {
      const value = toText(column.get(record));
      if (value !== undefined) entries.push({ Key: column.name, value });
    }
    return entries.length === 0 ? before : entries;
  };
  const names = sources.map((column) => `'${column.name}'`).join(', ');
  const rule = computedRule('ExtensionColumn', `columns ${names}`, read, (record) => sources.map((column) => column.get(record)).join('|'));
  // The profile's own ExtensionColumn columns are still read: their entries come first.
  return { ...rule, reads: [...(existing?.reads ?? []), ...sources.map((column) => column.name)] };
}

/** Returns the mapping with the file applied; throws MAPPING_INVALID when it names columns the feed lacks. */
export function applyMapping(base: RecordMapping | undefined, file: MappingFile, columns: SourceColumns): RecordMapping {
  const mapping: RecordMapping = base === undefined ? { rules: [] } : { ...base, rules: [...base.rules] };
  const problems: string[] = [];
  const sourceColumn = (where: string, name: string): Column | undefined => {
    const column = columns.optional(name);
    if (column === undefined) problems.push(`${where}: the feed has no column '${name}'`);
    return column;
  };
  for (const [field, name] of file.columns) {
    const column = sourceColumn(`columns.${field}`, name);
    if (column === undefined) continue;
    const reader = file.money.has(field) ? toMoney : READERS[valueKindOf(field)];
    setRule(mapping, columnRule(field, column, { reader }));
  }
  for (const [field, template] of file.templates) {
    const rule = templateRule(field, template.text, template.parts, columns);
    if ('missing' in rule) problems.push(...rule.missing.map((name) => `templates.${field}: the feed has no column '${name}'`));
    else setRule(mapping, rule);
  }
  const edit = (section: string, field: ListingFieldName, change: (rule: FieldRule) => FieldRule): void => {
    const rule = ruleFor(mapping, field);
    if (rule === undefined) problems.push(`${section}.${field}: no column feeds ${field} (add it to "columns")`);
    else setRule(mapping, change(rule));
  };
  for (const field of file.money) {
    if (file.columns.has(field)) continue;
    const rule = ruleFor(mapping, field);
    if (rule?.column !== undefined)
      setRule(mapping, {
        ...columnRule(field, columns.optional(rule.column), { reader: toMoney }),
        ...(rule.fallback === undefined ? {} : { fallback: rule.fallback }),
      });
  }
  for (const [field, table] of file.enums) edit('enums', field, (rule) => enumRule(rule, table));
  for (const [field, factor] of file.units) edit('units', field, (rule) => unitRule(rule, factor));
  for (const [field, value] of file.constants) setRule(mapping, constantRule(field, value));
  for (const [field, value] of file.defaults) {
    const rule = ruleFor(mapping, field);
    setRule(
      mapping,
      rule === undefined
        ? computedRule(
            field,
            `no ${field} column`,
            () => undefined,
            () => undefined,
            value,
          )
        : { ...rule, fallback: value },
    );
  }
  if (file.extension.length > 0) {
    const sources = file.extension
      .map((name) => sourceColumn('extension', name))
      .filter((column): column is Column => column !== undefined);
    setRule(mapping, extensionRule(ruleFor(mapping, 'ExtensionColumn'), sources));
  }
  if (problems.length > 0)
    throw mappingInvalid(file.path, problems, `the feed's columns are ${columns.names.map((name) => `'${name}'`).join(', ')}`);
  return mapping;
}
