/**
 * Public types of the service simulator. Declared apart from server.ts so that state, faults
 * and handlers can share them without importing the HTTP adapter; server.ts re-exports them.
 */
import type { EndpointName } from './spec/endpoints.js';
import type { SimListingWrite as ListingWrite } from './spec/requests.js';
import type { ProjectTable } from './spec/responses.js';

export interface SimCredentials {
  secretKey: string;
  sessionKey: string;
  projectAuthToken: string;
}

/** Scripted faults. Every rate is 0..1, decided per request with a seeded PRNG (repeatable). */
export interface SimFaults {
  seed?: number;
  /** Added to every request while it is counted in flight. */
  latencyMs?: number;
  jitterMs?: number;
  /** Answer HTTP 503; nothing is done. */
  http503Rate?: number;
  /** Success false, Code 500, Message 'Internal error, try again'; nothing is done. */
  envelopeFailureRate?: number;
  /** HTTP 429, Success false, Code 429, Message 'Too many requests', header Retry-After: 1. */
  rateLimitRate?: number;
  /** Apply the write (create/update/delete/edit/editKnowledge), then destroy the socket unanswered. */
  commitThenDropRate?: number;
  /** On RealEstateList reads: insert or remove a listing of that chatbot before answering. */
  driftRate?: number;
  /** Restrict faults to these endpoints (default: all). Latency applies to all regardless. */
  endpoints?: ReadonlyArray<EndpointName>;
  /**
   * An outage of the whole service: while true, every request to the seven endpoints has its
   * connection reset (the socket destroyed unanswered, nothing done), whatever `endpoints` says,
   * until faults without it are set. The admin routes (/__sim/*) keep answering.
   */
  outage?: boolean;
  /**
   * A careless service: every request to the endpoints (`endpoints` applies) is refused with
   * Success false, Code 400 and a Message quoting its headers and body (as written, percent-encoded
   * and in base64), nothing done. What the tool must never store or show (secret-scrub.ts).
   */
  echoRequest?: boolean;
  /** Text the echoing refusal quotes besides the request: a secret of ours the service holds (a test plants a webhook URL). */
  echoAlso?: string;
}

export type SaleTypeReadForm = 'snake' | 'title' | 'lower' | 'short';
export type ImagesReadForm = 'json' | 'comma' | 'semicolon';

/**
 * How an optional field without a value is rendered: `zero` (0, or "0" in a member the spec
 * types as text), `blank` (""), `null`, or `absent` (the member is left out).
 */
export type EmptyReadForm = 'zero' | 'blank' | 'null' | 'absent';

/** The optional write-shape fields the read shape shows (Location is never shown). */
export type OptionalReadField =
  | 'Images'
  | 'Tours'
  | 'Description'
  | 'ExtensionColumn'
  | 'Address'
  | 'City'
  | 'State'
  | 'ZIP'
  | 'Latitude'
  | 'Longitude'
  | 'SalePrice'
  | 'UnitAreaPrice'
  | 'HOAMonth'
  | 'ZestimatePrice'
  | 'RentPrice'
  | 'SpaceType'
  | 'DepositFee';

/** How the read shape (api-spec 2.4) renders the members whose form the spec leaves open. */
export interface ReadForms {
  saleType?: SaleTypeReadForm;
  images?: ImagesReadForm;
  /**
   * Per optional field, how "no value" is rendered (read-shape.ts EMPTY_READ_FORMS lists what
   * each field allows). Default: Latitude and Longitude `zero`, as the service reads them back;
   * every other field `blank`, as the spec says.
   */
  empty?: Partial<Record<OptionalReadField, EmptyReadForm>>;
}

export interface SimOptions {
  /** Default 0 (any free port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Missing members fall back to DEFAULT_SIM_CREDENTIALS. */
  credentials?: Partial<SimCredentials>;
  /** Seeded chatbot serial numbers (default ['bot-demo']). Chatbots named in `listings` are added too. */
  chatbots?: string[];
  /** Seeded listings per chatbot. */
  listings?: Record<string, ListingWrite[]>;
  /** Project tables per randomCode, added to the default project (DEFAULT_SIM_RANDOM_CODE). */
  tables?: Record<string, ProjectTable[]>;
  /** Default 100; a larger PageSize gets an envelope error naming the maximum. */
  maxPageSize?: number;
  /**
   * A PageSize above this (and within maxPageSize) is silently answered with this many listings
   * per page, offsets counted in the capped size, as some services do. Default: no cap.
   */
  pageSizeCap?: number;
  readForms?: ReadForms;
  faults?: SimFaults;
  /** Envelope Version, default '1.0'. */
  version?: string;
}

/**
 * One request to one of the seven endpoints. `status` is the HTTP status answered, 0 when the
 * connection was dropped on purpose (commitThenDrop; `envelopeCode` then says what the write
 * would have answered). `body` is the parsed request body (undefined for GET or unparsable).
 */
export interface SimCallLog {
  endpoint: EndpointName;
  status: number;
  envelopeCode?: number;
  at: number;
  body: unknown;
}

/** A listing as the simulator stores it: the write shape plus the ID the service issued. */
export type StoredListing = ListingWrite & { ID: string };
