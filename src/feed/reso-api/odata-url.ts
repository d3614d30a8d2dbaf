/**
 * OData request URLs: a resource URL plus the system query options of one request. Pure.
 */

/** The system query options a replication request sends (absent ones are left out). */
export interface ODataQuery {
  filter?: string;
  orderBy?: string;
  select?: readonly string[];
  expand?: readonly string[];
  top?: number;
  skip?: number;
  /** `$count=true`: the server adds `@odata.count`, the number of records the filter matches. */
  count?: boolean;
}

/** An OData string literal: quoted, a quote inside doubled. */
export function odataString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** Conditions joined by `and`, each in parentheses when there are several; undefined when there are none. */
export function allOf(...conditions: Array<string | undefined>): string | undefined {
  const given = conditions.filter((condition): condition is string => condition !== undefined && condition !== '');
  if (given.length <= 1) return given[0];
  return given.map((condition) => `(${condition})`).join(' and ');
}

/**
 * `resourceUrl` with the query's options. Options the URL already carries (other than `$`
 * options, which the query replaces) are kept: some platforms take their token or dataset id in
 * the query string. `$` stays literal, as OData servers write their own links.
 */
export function odataUrl(resourceUrl: string, query: ODataQuery): string {
  const url = new URL(resourceUrl);
  const kept = [...url.searchParams].filter(([name]) => !name.startsWith('$'));
  const options: Array<[string, string | undefined]> = [
    ['$filter', query.filter],
    ['$orderby', query.orderBy],
    ['$select', query.select?.join(',')],
    ['$expand', query.expand?.join(',')],
    ['$top', query.top?.toString()],
    ['$skip', query.skip === undefined || query.skip === 0 ? undefined : String(query.skip)],
    ['$count', query.count === true ? 'true' : undefined],
  ];
  const pairs = [...kept, ...options.filter((option): option is [string, string] => option[1] !== undefined)];
  const search = pairs.map(([name, value]) => `${encodeURIComponent(name).replace(/^%24/, '$')}=${encodeURIComponent(value)}`).join('&');
  return `${url.origin}${url.pathname}${search === '' ? '' : `?${search}`}`;
}
