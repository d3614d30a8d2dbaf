/**
 * The record mapping of a replicated pull: the reso profile, with the `--mapping` file applied
 * over it exactly as for a RESO feed file, and where a listing's key comes from (a sweep reads
 * only those members). Checked before anything is pulled: a file that starts from another
 * profile, or names a field the server's `$metadata` does not have, is refused with its name.
 */
import type { ListingFieldName, SyncKeyType } from '../../domain/listing.js';
import { applyMapping } from '../apply-mapping.js';
import { mappingInvalid } from '../feed-error.js';
import { loadMappingFile, type MappingFile } from '../mapping-schema.js';
import { buildResoMapping } from '../profiles/reso.js';
import { ruleFor, type RecordMapping } from '../record-mapping.js';
import { jsonColumns, type SourceColumns } from '../source-record.js';
import type { ResoRecord } from './types.js';

export interface ReplicationMapping {
  /** The mapping over a pull's columns (those of its first record). */
  readonly build: (columns: SourceColumns) => RecordMapping;
  /** The Property members a listing's key is made of. */
  readonly keyFields: readonly string[];
  /** A record's key as the listing's MLSNumber or Url, or undefined when it has none. */
  readonly keyOf: (record: ResoRecord) => string | undefined;
}

const PROFILE_KEY_FIELD: Readonly<Record<SyncKeyType, string>> = { MLSNumber: 'ListingId', URL: 'ListingURL' };

/** Every member `file` reads, by the setting that reads it ("columns.MLSNumber"). */
function namedMembers(file: MappingFile): Array<{ where: string; field: ListingFieldName | undefined; name: string }> {
  const named: Array<{ where: string; field: ListingFieldName | undefined; name: string }> = [];
  for (const [field, name] of file.columns) named.push({ where: `columns.${field}`, field, name });
  for (const [field, template] of file.templates)
    for (const part of template.parts) if ('column' in part) named.push({ where: `templates.${field}`, field, name: part.column });
  for (const name of file.extension) named.push({ where: 'extension', field: undefined, name });
  return named;
}

/**
 * Loads and checks the mapping of a replicating request. `fields`: the Property fields the
 * server's `$metadata` names (undefined when it published none: nothing can be checked then).
 */
export async function replicationMapping(
  keyType: SyncKeyType,
  mappingPath: string | undefined,
  fields?: { has(name: string): boolean },
): Promise<ReplicationMapping> {
  const keyField: ListingFieldName = keyType === 'MLSNumber' ? 'MLSNumber' : 'Url';
  const context = { keyType, resoPending: 'active' } as const;
  const file = mappingPath === undefined ? undefined : await loadMappingFile(mappingPath);
  if (file !== undefined && file.profile !== undefined && file.profile !== 'reso')
    throw mappingInvalid(file.path, [`"profile": ${JSON.stringify(file.profile)}: a replicated pull maps RESO records (profile reso)`]);
  const named = file === undefined ? [] : namedMembers(file);
  if (file !== undefined && fields !== undefined) {
    const missing = named.filter((member) => !fields.has(member.name));
    if (missing.length > 0)
      throw mappingInvalid(
        file.path,
        missing.map((member) => `${member.where}: the server's Property has no field '${member.name}' (its $metadata)`),
      );
  }
  const build = (columns: SourceColumns): RecordMapping => {
    const base = buildResoMapping(columns, context);
    return file === undefined ? base : applyMapping(base, file, columns);
  };
  const keyNames = named.filter((member) => member.field === keyField).map((member) => member.name);
  const keyFields = keyNames.length > 0 ? [...new Set(keyNames)] : [PROFILE_KEY_FIELD[keyType]];
  // Why a record naming only the key members: JSON columns are found by name, so the key rule reads any record.
  const keyRule = ruleFor(build(jsonColumns(Object.fromEntries(keyFields.map((name) => [name, ''])))), keyField);
  return {
    build,
    keyFields,
    keyOf: (record) => {
      const value = keyRule?.read(record);
      return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
    },
  };
}
