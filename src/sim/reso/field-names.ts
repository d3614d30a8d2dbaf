/**
 * A server whose Property key and stamp have other names than the Data Dictionary's (its
 * `$metadata` declares them): requests name the served names, which are read as the store's
 * (Data Dictionary) names, and records are answered under the served names. A request naming the
 * Data Dictionary name of a renamed field is refused, as such a server refuses an unknown property.
 */
import type { ResoFieldNames } from './types.js';

/** Store name → served name, for the fields `names` renames. */
export function renamedFields(names: ResoFieldNames | undefined): ReadonlyMap<string, string> {
  const renamed = new Map<string, string>();
  if (names?.key !== undefined && names.key !== 'ListingKey') renamed.set('ListingKey', names.key);
  if (names?.timestamp !== undefined && names.timestamp !== 'ModificationTimestamp') renamed.set('ModificationTimestamp', names.timestamp);
  return renamed;
}

/** The options whose text names fields. */
const NAMING = ['$filter', '$orderby', '$select'];
/** A quoted literal (kept whole), or a name that is not part of a number or a date-time literal. */
const TOKEN = /('(?:[^']|'')*')|(?<![\w.:-])([A-Za-z_]\w*)/g;

/**
 * The query with served names turned into store names; a message when it names a store name this
 * server does not serve.
 */
export function inStoreNames(params: URLSearchParams, renamed: ReadonlyMap<string, string>): URLSearchParams | string {
  if (renamed.size === 0) return params;
  const toStore = new Map([...renamed].map(([store, served]) => [served, store]));
  const translated = new URLSearchParams(params);
  for (const option of NAMING) {
    const text = params.get(option);
    if (text === null) continue;
    let refused: string | undefined;
    const swapped = text.replace(TOKEN, (whole: string, quoted: string | undefined, name: string | undefined) => {
      if (quoted !== undefined || name === undefined) return whole;
      const served = renamed.get(name);
      if (served !== undefined)
        refused ??= `${option}: Property has no property '${name}' (its key and stamp here: see $metadata; '${served}')`;
      return toStore.get(name) ?? name;
    });
    if (refused !== undefined) return refused;
    translated.set(option, swapped);
  }
  return translated;
}

/** The page's records with their members under the served names (in place; order kept). */
export function inServedNames(body: unknown, renamed: ReadonlyMap<string, string>): void {
  if (renamed.size === 0 || typeof body !== 'object' || body === null) return;
  const page = body as { value?: unknown };
  if (!Array.isArray(page.value)) return;
  page.value = page.value.map((record: unknown) =>
    typeof record === 'object' && record !== null
      ? Object.fromEntries(Object.entries(record).map(([name, value]) => [renamed.get(name) ?? name, value]))
      : record,
  );
}
