/**
 * Parses the OData system query options a replication client sends ($filter, $orderby, $top,
 * $skip, $select, $expand, $count) against what one resource supports. Pure: the page size cap
 * and the expand refusal are the server's configuration and are applied by the handler.
 */
import { parseFilter, type FilterExpr, type FilterFields, type Parsed } from './filter.js';

/** What one resource (Property, Media) supports. */
export interface ResourceSpec {
  name: 'Property' | 'Media' | 'EntityEvent' | 'Lookup';
  /** The key: every order ends with it, so paging by $skip is total and stable. */
  key: string;
  filter: FilterFields;
  orderable: readonly string[];
  /** The order when $orderby is absent (the key is appended to any order). */
  defaultOrder: readonly OrderTerm[];
  selectable: readonly string[];
  expandable: readonly string[];
}

export interface OrderTerm {
  field: string;
  descending: boolean;
}

export interface ODataQuery {
  /** Undefined: no $filter. */
  filter: FilterExpr | undefined;
  /** Always ends with the resource key. */
  orderBy: OrderTerm[];
  /** As asked: the most records of the whole answer, across nextLinks (OData's meaning; see resources.ts). */
  top: number | undefined;
  skip: number;
  /** The server's own continuation (in its nextLinks): records of the answer already served. */
  skipToken: number;
  select: string[] | undefined;
  expand: string[];
  count: boolean;
}

const SUPPORTED = new Set(['$filter', '$orderby', '$top', '$skip', '$skiptoken', '$select', '$expand', '$count', '$format']);

const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });

function parseCount(name: string, text: string | null): Parsed<number | undefined> {
  if (text === null) return { ok: true, value: undefined };
  if (!/^\d{1,9}$/.test(text.trim())) return fail(`${name} must be a whole number ≥ 0 (got '${text}')`);
  return { ok: true, value: Number(text.trim()) };
}

function parseOrderBy(text: string | null, spec: ResourceSpec): Parsed<OrderTerm[]> {
  const terms: OrderTerm[] = [];
  if (text === null) terms.push(...spec.defaultOrder);
  else {
    for (const part of text.split(',')) {
      const [field = '', direction = 'asc', ...rest] = part.trim().split(/\s+/);
      if (!spec.orderable.includes(field))
        return fail(`$orderby: cannot order ${spec.name} by '${field}' (orderable: ${spec.orderable.join(', ')})`);
      if (rest.length > 0 || (direction !== 'asc' && direction !== 'desc'))
        return fail(`$orderby: '${part.trim()}' is not 'Field asc' or 'Field desc'`);
      if (terms.some((term) => term.field === field)) return fail(`$orderby: ${field} is named twice`);
      terms.push({ field, descending: direction === 'desc' });
    }
  }
  // Why: without the key as the last term, records with equal timestamps could swap places
  // between two requests and a $skip page would repeat one and miss another.
  if (!terms.some((term) => term.field === spec.key)) terms.push({ field: spec.key, descending: false });
  return { ok: true, value: terms };
}

function parseNames(option: string, text: string | null, allowed: readonly string[], hint: string): Parsed<string[] | undefined> {
  if (text === null) return { ok: true, value: undefined };
  const names = text.split(',').map((name) => name.trim());
  if (names.some((name) => name.includes('('))) return fail(`${option}: nested options such as Media($select=...) are not supported`);
  const unknown = names.filter((name) => !allowed.includes(name));
  if (unknown.length > 0) return fail(`${option}: unknown ${unknown.map((name) => `'${name}'`).join(', ')} (${hint})`);
  return { ok: true, value: names };
}

/** Parses the query string of a resource request. */
export function parseQuery(params: URLSearchParams, spec: ResourceSpec): Parsed<ODataQuery> {
  for (const name of new Set(params.keys())) {
    if (name.startsWith('$') && !SUPPORTED.has(name))
      return fail(`query option ${name} is not supported (supported: ${[...SUPPORTED].join(', ')})`);
    if (params.getAll(name).length > 1) return fail(`query option ${name} is given twice`);
  }
  const format = params.get('$format');
  if (format !== null && format !== 'json' && !format.startsWith('application/json'))
    return fail(`$format: only json is served (got '${format}')`);
  const filterText = params.get('$filter');
  const filter: Parsed<FilterExpr | undefined> =
    filterText === null ? { ok: true, value: undefined } : parseFilter(filterText, spec.filter);
  if (!filter.ok) return filter;
  const orderBy = parseOrderBy(params.get('$orderby'), spec);
  if (!orderBy.ok) return orderBy;
  const top = parseCount('$top', params.get('$top'));
  if (!top.ok) return top;
  const skip = parseCount('$skip', params.get('$skip'));
  if (!skip.ok) return skip;
  const skipToken = parseCount('$skiptoken', params.get('$skiptoken'));
  if (!skipToken.ok) return skipToken;
  const select = parseNames('$select', params.get('$select'), spec.selectable, `selectable: ${spec.selectable.join(', ')}`);
  if (!select.ok) return select;
  const expandHint = spec.expandable.length === 0 ? `${spec.name} has nothing to expand` : `expandable: ${spec.expandable.join(', ')}`;
  const expand = parseNames('$expand', params.get('$expand'), spec.expandable, expandHint);
  if (!expand.ok) return expand;
  const count = params.get('$count');
  if (count !== null && count !== 'true' && count !== 'false') return fail(`$count must be true or false (got '${count}')`);
  return {
    ok: true,
    value: {
      filter: filter.value,
      orderBy: orderBy.value,
      top: top.value,
      skip: skip.value ?? 0,
      skipToken: skipToken.value ?? 0,
      select: select.value,
      expand: expand.value ?? [],
      count: count === 'true',
    },
  };
}
