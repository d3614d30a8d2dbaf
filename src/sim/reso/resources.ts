/**
 * The two resources, Property and Media: what each supports, and one page of one answered as
 * OData JSON `{ "@odata.context", "@odata.count"?, value, "@odata.nextLink"? }`.
 */
import { COMPARE_OPS, compareText, matches, type FilterOp } from './filter.js';
import type { ODataQuery, OrderTerm, ResourceSpec } from './odata-query.js';
import { pageWindow } from './paging.js';
import type { StoredRecord } from './store.js';
import type { ResoAnswer, ResoConfig, ResoMedia, ResoPropertyField } from './types.js';

const COMPARISONS: ReadonlySet<FilterOp> = new Set(COMPARE_OPS);

const PROPERTY_FIELDS = [
  'ListingKey',
  'ListingId',
  'ModificationTimestamp',
  'StandardStatus',
  'MlgCanView',
  'ListPrice',
  'City',
  'StateOrProvince',
  'PostalCode',
  'UnparsedAddress',
  'BedroomsTotal',
  'BathroomsTotalInteger',
  'LivingArea',
  'LivingAreaUnits',
  'YearBuilt',
  'PropertyType',
  'PublicRemarks',
  'Latitude',
  'Longitude',
  'PhotosChangeTimestamp',
  'PhotosCount',
  'ListingURL',
  'InternetEntireListingDisplayYN',
  'InternetAddressDisplayYN',
  'InternetAutomatedValuationDisplayYN',
  'MlgCanUse',
  'ListOfficeName',
  'ListOfficePhone',
  'ListAgentEmail',
  'PrivateRemarks',
  'ShowingInstructions',
  'AssociationFee',
  'AssociationFeeFrequency',
] as const satisfies readonly ResoPropertyField[];

const MEDIA_FIELDS = [
  'MediaKey',
  'MediaURL',
  'Order',
  'ResourceRecordKey',
  'ModificationTimestamp',
  'MediaCategory',
] as const satisfies readonly (keyof ResoMedia)[];

/** Property: filter and order by ModificationTimestamp and the key (the replication subset). */
export const PROPERTY_SPEC: ResourceSpec = {
  name: 'Property',
  key: 'ListingKey',
  filter: {
    ModificationTimestamp: { kind: 'timestamp', ops: COMPARISONS },
    PhotosChangeTimestamp: { kind: 'timestamp', ops: COMPARISONS },
    ListingKey: { kind: 'string', ops: new Set<FilterOp>([...COMPARE_OPS, 'in']) },
  },
  orderable: ['ModificationTimestamp', 'ListingKey'],
  defaultOrder: [{ field: 'ModificationTimestamp', descending: false }],
  selectable: PROPERTY_FIELDS,
  expandable: ['Media'],
};

/** Media: the photos of chosen records (ResourceRecordKey eq/in), for servers that refuse $expand. */
export const MEDIA_SPEC: ResourceSpec = {
  name: 'Media',
  key: 'MediaKey',
  filter: {
    ResourceRecordKey: { kind: 'string', ops: new Set<FilterOp>(['eq', 'in']) },
    ModificationTimestamp: { kind: 'timestamp', ops: COMPARISONS },
    MediaKey: { kind: 'string', ops: new Set<FilterOp>([...COMPARE_OPS, 'in']) },
  },
  orderable: ['ResourceRecordKey', 'Order', 'ModificationTimestamp', 'MediaKey'],
  defaultOrder: [
    { field: 'ResourceRecordKey', descending: false },
    { field: 'Order', descending: false },
  ],
  selectable: MEDIA_FIELDS,
  expandable: [],
};

/** How a page is answered: the server's configuration and where the request came in. */
export interface PageContext {
  config: ResoConfig;
  /** e.g. http://127.0.0.1:PORT/odata */
  serviceRoot: string;
  /** The request's query string, for nextLink. */
  params: URLSearchParams;
  /** `Prefer: odata.maxpagesize` of the request. */
  preferredPageSize?: number;
  /** Set while the media host is on: the MediaURL of a photo (signed, expiring). */
  photoUrl?: (photo: ResoMedia) => string;
}

/** A photo as a read answers it: its MediaURL the media host's when that is on. */
function shownPhoto(photo: ResoMedia, context: PageContext): ResoMedia {
  return context.photoUrl === undefined ? { ...photo } : { ...photo, MediaURL: context.photoUrl(photo) };
}

/** One resource's rows as the page builder sees them. */
export interface ResourceView<Row> {
  spec: ResourceSpec;
  /** Every row in `compare` order (cached per order by the store). */
  ordered: (orderKey: string, compare: (a: Row, b: Row) => number) => readonly Row[];
  /** Whether a row is served at all (ResoConfig.serveAtMost); counted either way. */
  served?: (row: Row) => boolean;
  /** A field's value: epoch ms for timestamps, else text or number. */
  read: (row: Row, field: string) => string | number;
  project: (row: Row, query: ODataQuery) => Record<string, unknown>;
}

function comparatorOf<Row>(terms: readonly OrderTerm[], read: (row: Row, field: string) => string | number): (a: Row, b: Row) => number {
  return (a, b) => {
    for (const term of terms) {
      const x = read(a, term.field);
      const y = read(b, term.field);
      const order = typeof x === 'number' && typeof y === 'number' ? x - y : compareText(String(x), String(y));
      if (order !== 0) return term.descending ? -order : order;
    }
    return 0;
  };
}

/** The nextLink: the same request with the server's cursor moved on. `$` is kept literal, as MLS servers write it. */
function nextLinkOf(context: PageContext, spec: ResourceSpec, next: { skip?: number; skipToken?: number }): string {
  const params = new URLSearchParams(context.params);
  if (next.skip !== undefined) params.set('$skip', String(next.skip));
  if (next.skipToken !== undefined) params.set('$skiptoken', String(next.skipToken));
  const query = [...params].map(([name, value]) => `${encodeURIComponent(name).replace(/^%24/, '$')}=${encodeURIComponent(value)}`);
  return `${context.serviceRoot}/${spec.name}?${query.join('&')}`;
}

export function answerPage<Row>(view: ResourceView<Row>, query: ODataQuery, context: PageContext): ResoAnswer & { records: number } {
  const { spec, served } = view;
  const orderKey = query.orderBy.map((term) => `${term.field} ${term.descending ? 'desc' : 'asc'}`).join(',');
  const ordered = view.ordered(orderKey, comparatorOf(query.orderBy, view.read));
  const matched = query.filter === undefined ? ordered : ordered.filter((row) => matches(query.filter, (field) => view.read(row, field)));
  const visible = served === undefined ? matched : matched.filter(served);
  const window = pageWindow(context.config, query, visible.length, context.preferredPageSize);
  const page = visible.slice(window.start, window.end);
  const selected = query.select === undefined ? '' : `(${query.select.join(',')})`;
  const counted = query.count && context.config.count !== false;
  const body = {
    '@odata.context': `${context.serviceRoot}/$metadata#${spec.name}${selected}`,
    ...(counted ? { '@odata.count': matched.length } : {}),
    value: page.map((row) => view.project(row, query)),
    ...(window.next ? { '@odata.nextLink': nextLinkOf(context, spec, window.next) } : {}),
  };
  const headers =
    window.preferenceApplied === undefined ? undefined : { 'preference-applied': `odata.maxpagesize=${window.preferenceApplied}` };
  return { status: 200, body, records: page.length, ...(headers ? { headers } : {}) };
}

/** The members `names` of a record, in the order $select named them. */
function pick(source: object, names: readonly string[]): Record<string, unknown> {
  const members = new Map<string, unknown>(Object.entries(source));
  return Object.fromEntries(names.map((name) => [name, members.get(name)]));
}

function readProperty(row: StoredRecord, field: string): string | number {
  if (field === 'ModificationTimestamp') return row.modifiedMs;
  const value = row.property[field as ResoPropertyField];
  return field === 'PhotosChangeTimestamp' ? Date.parse(String(value)) : String(value);
}

export function answerProperty(rows: ResourceView<StoredRecord>['ordered'], query: ODataQuery, context: PageContext): ResoAnswer {
  if (query.expand.includes('Media') && !context.config.expandMedia) {
    return {
      status: 400,
      body: {
        error: {
          code: '400',
          message: "$expand is not supported: read photos from the Media resource ($filter=ResourceRecordKey in ('...'))",
        },
      },
    };
  }
  const cut = context.config.serveAtMost;
  const replicaOrder = comparatorOf<StoredRecord>(
    PROPERTY_SPEC.defaultOrder.concat({ field: 'ListingKey', descending: false }),
    readProperty,
  );
  const servedRows = cut === undefined ? undefined : new Set(rows('ModificationTimestamp asc,ListingKey asc', replicaOrder).slice(0, cut));
  return answerPage<StoredRecord>(
    {
      spec: PROPERTY_SPEC,
      ordered: rows,
      ...(servedRows === undefined ? {} : { served: (row: StoredRecord) => servedRows.has(row) }),
      read: readProperty,
      project: (row, q) => ({
        ...(q.select === undefined ? { ...row.property } : pick(row.property, q.select)),
        ...(q.expand.includes('Media') ? { Media: row.media.map((photo) => shownPhoto(photo, context)) } : {}),
      }),
    },
    query,
    context,
  );
}

export function answerMedia(rows: ResourceView<ResoMedia>['ordered'], query: ODataQuery, context: PageContext): ResoAnswer {
  const page = answerPage<ResoMedia>(
    {
      spec: MEDIA_SPEC,
      ordered: rows,
      read: (row, field) =>
        field === 'ModificationTimestamp'
          ? Date.parse(row.ModificationTimestamp)
          : field === 'Order'
            ? row.Order
            : String(row[field as keyof ResoMedia]),
      project: (row, q) => (q.select === undefined ? { ...shownPhoto(row, context) } : pick(shownPhoto(row, context), q.select)),
    },
    query,
    context,
  );
  return { ...page, records: 0, media: page.records };
}
