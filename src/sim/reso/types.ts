/**
 * Public types of the RESO Web API simulator (a test double of an MLS's OData server: MLS Grid,
 * Trestle, Bridge). Declared apart from server.ts so state, query and handlers share them
 * without importing the HTTP adapter; server.ts re-exports them.
 */

/** RESO Data Dictionary StandardStatus values the simulator stamps. */
export const RESO_STATUSES = [
  'Active',
  'Active Under Contract',
  'Coming Soon',
  'Pending',
  'Closed',
  'Withdrawn',
  'Expired',
  'Canceled',
  'Delete',
] as const;
export type ResoStatus = (typeof RESO_STATUSES)[number];

/** One Media record (RESO Media resource), a photo of the Property named by ResourceRecordKey. */
export interface ResoMedia {
  MediaKey: string;
  MediaURL: string;
  Order: number;
  ResourceRecordKey: string;
  ModificationTimestamp: string;
  MediaCategory: 'Photo';
}

/** One Property record with the members the `reso` feed profile reads (Media travels apart). */
export interface ResoProperty {
  ListingKey: string;
  ListingId: string;
  /** ISO 8601 with milliseconds and Z, e.g. 2024-05-01T12:00:00.000Z. */
  ModificationTimestamp: string;
  StandardStatus: ResoStatus;
  /** MLS Grid's flag: false means the record may no longer be displayed (treat as removed). */
  MlgCanView: boolean;
  ListPrice: number;
  City: string;
  StateOrProvince: string;
  PostalCode: string;
  UnparsedAddress: string;
  BedroomsTotal: number;
  BathroomsTotalInteger: number;
  LivingArea: number;
  LivingAreaUnits: 'Square Feet';
  YearBuilt: number;
  PropertyType: 'Residential' | 'Residential Lease';
  PublicRemarks: string;
  Latitude: number;
  Longitude: number;
  PhotosChangeTimestamp: string;
  PhotosCount: number;
  /** The listing's public page; the feed profile's Url (required by the write shape). */
  ListingURL: string;
  /** IDX display flags and the members display rules speak of: absent unless an admin sets them (display tests). */
  InternetEntireListingDisplayYN?: boolean;
  InternetAddressDisplayYN?: boolean;
  InternetAutomatedValuationDisplayYN?: boolean;
  MlgCanUse?: string[];
  ListOfficeName?: string;
  ListOfficePhone?: string;
  ListAgentEmail?: string;
  PrivateRemarks?: string;
  ShowingInstructions?: string;
  /** Absent unless an admin sets them (lookup tests: a frequency of the server's own). */
  AssociationFee?: number;
  AssociationFeeFrequency?: string;
}

/** Property members a client may $select, $filter or $orderby by name. */
export type ResoPropertyField = keyof ResoProperty;

/**
 * Requests a client may make before the server suspends it. A window is rolling (any second,
 * any hour, any day), the strictest reading of a published budget. Absent members are unlimited.
 */
export interface ResoBudget {
  perSecond?: number;
  perHour?: number;
  perDay?: number;
  /** Response bytes in any rolling hour. */
  bytesPerHour?: number;
}

/**
 * Scripted faults. Rates are 0..1, decided per resource request with a seeded PRNG (the n-th
 * request gets the same decision for the same seed whatever the rates are).
 */
export interface ResoFaults {
  seed?: number;
  /** HTTP 429 with Retry-After (`retryAfterSeconds`); the client is not suspended. */
  rateLimitRate?: number;
  retryAfterSeconds?: number;
  /** HTTP `serverErrorStatus` (default 503) with an OData error body. */
  serverErrorRate?: number;
  serverErrorStatus?: 500 | 502 | 503 | 504;
  /**
   * Statuses answered, one per resource request, before any rate applies (then consumed). A 200
   * serves that request as usual: [200, 200, 503] fails the third request only.
   */
  nextStatuses?: number[];
  /** Every token is revoked this long after it was issued, although expires_in promises more. */
  tokenRevokeAfterMs?: number;
}

/** One row of the Lookup resource as configured (RESO DD 2.0 Lookup; the key and stamp are the simulator's). */
export interface ResoLookupRow {
  LookupName: string;
  LookupValue: string;
  StandardLookupValue?: string;
  LegacyODataValue?: string;
}

/** Property's key and modification stamp under other names than the Data Dictionary's (its `$metadata` says which). */
export interface ResoFieldNames {
  /** Served in place of ListingKey (the EntityType's Key). */
  key?: string;
  /** Served in place of ModificationTimestamp. */
  timestamp?: string;
}

/** What a running simulator can be reconfigured with (POST /__reso/config). */
export interface ResoConfig {
  /** The server's largest page (default 1000): no response carries more records. */
  maxTop: number;
  /** The server's own page size, without a smaller `Prefer: odata.maxpagesize` (default maxTop). */
  defaultTop?: number;
  /**
   * What `$top` means (default 'total', OData's meaning: the most records of the whole answer,
   * paged by the server behind nextLinks). 'pageSize': `$top` is the page, capped at maxTop
   * silently, and nextLinks move `$skip` on (servers that predate server-driven paging).
   */
  topSemantics?: 'total' | 'pageSize';
  /** Whether `Prefer: odata.maxpagesize` is honoured (default true) and echoed in Preference-Applied. */
  honourMaxPageSize?: boolean;
  /** The `$top`/`$skip` bug: `$top=T&$skip=S` answers T − S records and no nextLink (default false). */
  skipBug?: boolean;
  /** A chain of nextLinks ends after this many records of the answer although more match (default never). */
  dropNextLinkAfter?: number;
  /**
   * Only the first N records of the collection, in (ModificationTimestamp, ListingKey) order, are
   * ever served, while `@odata.count` counts all that match (a replica behind its primary).
   */
  serveAtMost?: number;
  /** Whether `$count=true` is answered with `@odata.count` (default true). */
  count?: boolean;
  /** Whether pages carry @odata.nextLink (default true); without it a client continues by itself. */
  nextLink: boolean;
  /** Whether Property accepts $expand=Media (default true); when false it answers 400. */
  expandMedia: boolean;
  /** expires_in of issued tokens (default 3600). */
  tokenTtlSeconds: number;
  /** A server without `$metadata`: it is answered with this status (default: served). */
  noMetadata?: 404 | 501;
  /** Property's key and stamp fields under other names (default the Data Dictionary's). */
  fieldNames?: ResoFieldNames;
  /**
   * The Lookup resource's rows (RESO DD 2.0), declared in `$metadata` and served at /odata/Lookup;
   * absent (the default): the server has no Lookup resource.
   */
  lookups?: ResoLookupRow[];
  budget: ResoBudget;
  faults: ResoFaults;
}

export interface ResoCredentials {
  clientId: string;
  clientSecret: string;
}

export interface ResoSimOptions extends Partial<ResoConfig> {
  /** Default 0 (any free port). */
  port?: number;
  /** Default 127.0.0.1. Admin routes answer loopback clients only, whatever the host. */
  host?: string;
  credentials?: Partial<ResoCredentials>;
  /** Seed of the PRNG that makes records (default 1): the same seed gives the same records. */
  seed?: number;
  /** Records seeded at start (default 0), stamped up to now, one per `stepMs` (default 60 000). */
  records?: number;
  /** The clock (epoch ms) for tokens, budget windows and the timestamps modifications get. */
  now?: () => number;
}

/** What the simulator counted since start or the last reset. */
export interface ResoCounters {
  /** Requests to the resources (/odata/...), whatever they were answered. */
  requests: number;
  /** Property records in answered pages. */
  recordsServed: number;
  /** Media records answered by the Media resource (expanded Media is not counted here). */
  mediaServed: number;
  /** Bytes of response bodies of the resources. */
  bytesServed: number;
  /** Most resource requests seen in any rolling second, hour and day. */
  maxPerSecond: number;
  maxPerHour: number;
  maxPerDay: number;
  tokensIssued: number;
  /** 429s sent, by a fault or a suspension. */
  tooManyRequests: number;
  unauthorized: number;
  serverErrors: number;
  badRequests: number;
}

/** One resource request, as the log keeps it (newest last, capped). */
export interface ResoRequestLog {
  /** When the request arrived, on the simulator's clock (epoch ms): what a budget at the server counts. */
  at: number;
  /** Path and query as sent, e.g. /odata/Property?$top=100 */
  url: string;
  /** The request's Prefer and OData-MaxVersion headers, when it sent them. */
  prefer?: string;
  odataMaxVersion?: string;
  status: number;
  records: number;
  bytes: number;
}

/** An OData error body: `{ error: { code, message } }`. */
export interface ODataError {
  error: { code: string; message: string };
}

/** A framework-free answer; the adapter in server.ts writes it. */
export interface ResoAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Records in the answered page (for counters). */
  records?: number;
  media?: number;
}
