/**
 * The undici implementation of ApiClient: one keep-alive Agent per client, credentials per
 * endpoint (auth-headers.ts), inputs validated before sending, answers read by read-response.ts.
 * It never retries: retry policy belongs to the queue (retry-policy.ts decides, BullMQ repeats).
 */
import { performance } from 'node:perf_hooks';
import { Agent } from 'undici';
import type { z } from 'zod';
import type { Logger } from '../runtime/logger.js';
import { authHeaders, type ApiCredentials } from './auth-headers.js';
import { DEFAULT_REQUEST_TIMEOUTS, type ApiClient, type CallContext } from './client-contract.js';
import { ListingSyncError } from '../shared/errors.js';
import { ENDPOINTS, type EndpointName } from './endpoints.js';
import { ApiError } from './errors.js';
import { issueLines } from '../shared/zod-issues.js';
import { isParsedBy } from '../shared/parsed-marks.js';
import { createScrubber } from '../shared/secret-scrub.js';
import { API_ISSUES, readResponse, type RawResponse } from './read-response.js';
import { requestTargets } from './request-target.js';
import {
  chatbotSettingsSchema,
  createdListingIdSchema,
  deleteListingsDataSchema,
  deleteRequestSchema,
  editChatbotDataSchema,
  editKnowledgeDataSchema,
  knowledgeEditSchema,
  listingUpdateSchema,
  listingWriteSchema,
  listListingsDataSchema,
  listRequestSchema,
  listTablesDataSchema,
  updateListingDataSchema,
} from './schemas.js';
import { transportFailure } from './transport-failure.js';
import { ErrorCode } from '../shared/error-codes.js';

export interface ApiCallEvent {
  endpoint: EndpointName;
  ms: number;
  /** 'ok' or the error's code. */
  outcome: string;
  envelopeCode?: number;
}

export interface ApiClientOptions {
  /** Base address of the chatbot and real-estate endpoints (1–6). */
  baseUrl: string;
  /** Base address of the table listing (endpoint 7). */
  siteUrl?: string;
  credentials: ApiCredentials;
  /** Defaults: connect 5000, headers 30000, body 30000 ms. */
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number };
  /** Most open connections per origin (undici Agent `connections`), default 16. */
  connections?: number;
  /** Gets one debug line per call: endpoint, status, ms, envelope Code. Never headers. */
  logger?: Logger;
  /** Called once per call, after it settled (metrics). */
  onCall?: (event: ApiCallEvent) => void;
  /** Secrets besides `credentials` that no error of this client may quote (the configured ones). */
  secrets?: readonly string[];
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function withKey(listingKey: string | undefined): { listingKey?: string } {
  return listingKey === undefined ? {} : { listingKey };
}

/** Parses input with its schema or throws INVALID_INPUT listing every "Field: reason". */
function validate<S extends z.ZodType>(schema: S, input: unknown, endpoint: EndpointName, listingKey: string | undefined): z.infer<S> {
  // Already this schema's output (a create job's listing, parsed as job data): nothing to redo.
  if (isParsedBy(schema, input)) return input as z.infer<S>;
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = issueLines(result.error.issues, API_ISSUES);
  throw new ApiError(ErrorCode.INVALID_INPUT, `invalid request: ${problems.join('; ')}`, {
    endpoint,
    ...withKey(listingKey),
    phase: 'before',
    problems,
  });
}

function envelopeCodeOf(err: unknown): number | undefined {
  if (!(err instanceof ApiError)) return undefined;
  return err.details.envelopeCode;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const timeouts = { ...DEFAULT_REQUEST_TIMEOUTS, ...options.timeouts };
  const agent = new Agent({
    connections: options.connections ?? 16,
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
  });
  const baseUrl = trimSlash(options.baseUrl);
  const targetOf = requestTargets();
  // Why here, where the service's words enter: a service whose Message quotes the request (its
  // headers, its body) would otherwise hand our credentials to every record and line that
  // quotes the failure. The client knows them, so its errors never carry them.
  const scrubber = createScrubber([
    options.credentials.secretKey,
    options.credentials.sessionKey,
    options.credentials.projectAuthToken,
    ...(options.secrets ?? []),
  ]);

  function report(
    endpoint: EndpointName,
    started: number,
    outcome: string,
    status: number | undefined,
    envelopeCode: number | undefined,
  ): void {
    const ms = Math.round(performance.now() - started);
    // Why the level check: the line's object would otherwise be built once per call for nothing.
    if (options.logger?.isLevelEnabled('debug') === true) options.logger.debug({ endpoint, status, ms, envelopeCode, outcome }, 'api call');
    // Why: a metrics hook that throws must not turn a create the service committed into a
    // failure, which the queue would retry into a duplicate.
    try {
      options.onCall?.({ endpoint, ms, outcome, ...(envelopeCode === undefined ? {} : { envelopeCode }) });
    } catch (hookError) {
      options.logger?.warn({ endpoint, err: hookError }, 'onCall hook threw; ignored');
    }
  }

  async function send<S extends z.ZodType>(
    endpoint: EndpointName,
    url: string,
    body: unknown,
    dataSchema: S,
    ctx: CallContext,
  ): Promise<z.infer<S>> {
    const started = performance.now();
    const listingKey = ctx.listingKey;
    if (ctx.sendBy !== undefined && started > ctx.sendBy) {
      throw new ListingSyncError(
        ErrorCode.SEND_WINDOW_PASSED,
        `${endpoint} for ${listingKey ?? 'a listing'} not sent: its key claim is older than the send fence and must be confirmed first`,
        {
          retryable: true,
        },
      );
    }
    let status: number | undefined;
    try {
      const headers = { ...authHeaders(endpoint, options.credentials, listingKey), 'content-type': 'application/json' };
      if (ctx.signal?.aborted) {
        throw new ApiError(ErrorCode.ABORTED, 'request aborted by the caller before it was sent', {
          endpoint,
          ...withKey(listingKey),
          phase: 'before',
        });
      }
      let raw: RawResponse;
      try {
        const response = await agent.request({
          ...targetOf(url),
          method: ENDPOINTS[endpoint].method,
          headers,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          headersTimeout: timeouts.headersMs,
          bodyTimeout: timeouts.bodyMs,
          ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
        });
        status = response.statusCode;
        raw = { status: response.statusCode, headers: response.headers, body: await response.body.text() };
      } catch (thrown) {
        const target = { origin: targetOf(url).origin, setting: ENDPOINTS[endpoint].base === 'site' ? 'SITE_URL' : 'API_BASE_URL' };
        throw transportFailure(thrown, { endpoint, listingKey, signal: ctx.signal, target });
      }
      const data = readResponse(raw, dataSchema, { endpoint, listingKey, nowMs: Date.now() });
      report(endpoint, started, 'ok', status, 200);
      return data;
    } catch (err) {
      const code = err instanceof ApiError ? err.code : ErrorCode.UNKNOWN;
      report(endpoint, started, code, status, envelopeCodeOf(err));
      throw scrubber.error(err);
    }
  }

  /** Runs the checks made before sending (credentials, input); a failure is reported like a call. */
  function beforeSending<T>(endpoint: EndpointName, ctx: CallContext, check: () => T): T {
    const started = performance.now();
    try {
      authHeaders(endpoint, options.credentials, ctx.listingKey);
      return check();
    } catch (err) {
      report(endpoint, started, err instanceof ApiError ? err.code : ErrorCode.UNKNOWN, undefined, undefined);
      throw scrubber.error(err);
    }
  }

  /** Endpoints 1–6: validate, then POST the parsed (trimmed, unknown-keys-stripped) body. */
  async function post<I extends z.ZodType, S extends z.ZodType>(
    endpoint: EndpointName,
    inputSchema: I,
    input: unknown,
    dataSchema: S,
    ctx: CallContext,
  ): Promise<z.infer<S>> {
    const body = beforeSending(endpoint, ctx, () => validate(inputSchema, input, endpoint, ctx.listingKey));
    return await send(endpoint, `${baseUrl}${ENDPOINTS[endpoint].path}`, body, dataSchema, ctx);
  }

  function listTablesUrl(randomCode: string, ctx: CallContext): string {
    if (options.siteUrl === undefined || options.siteUrl.trim() === '') {
      throw new ApiError(ErrorCode.MISSING_CONFIG, 'no site address: set SITE_URL', {
        endpoint: 'listTables',
        ...withKey(ctx.listingKey),
        phase: 'before',
      });
    }
    if (typeof randomCode !== 'string' || randomCode.trim() === '') {
      const problems = ['randomCode: must be a non-empty string'];
      throw new ApiError(ErrorCode.INVALID_INPUT, `invalid request: ${problems.join('; ')}`, {
        endpoint: 'listTables',
        ...withKey(ctx.listingKey),
        phase: 'before',
        problems,
      });
    }
    return `${trimSlash(options.siteUrl)}${ENDPOINTS.listTables.path}${encodeURIComponent(randomCode.trim())}`;
  }

  return {
    editChatbot: (settings, ctx = {}) => post('editChatbot', chatbotSettingsSchema, settings, editChatbotDataSchema, ctx),
    editKnowledge: (edit, ctx = {}) => post('editKnowledge', knowledgeEditSchema, edit, editKnowledgeDataSchema, ctx),
    createListing: (listing, ctx = {}) =>
      post('createListing', listingWriteSchema, listing, createdListingIdSchema, { listingKey: listing.MLSNumber, ...ctx }),
    updateListing: (update, ctx = {}) =>
      post('updateListing', listingUpdateSchema, update, updateListingDataSchema, { listingKey: update.Key, ...ctx }),
    listListings: (req, ctx = {}) => post('listListings', listRequestSchema, req, listListingsDataSchema, ctx),
    deleteListings: async (req, ctx = {}) =>
      (await post('deleteListings', deleteRequestSchema, req, deleteListingsDataSchema, ctx)).SuccessCount,
    async listTables(randomCode, ctx = {}) {
      const url = beforeSending('listTables', ctx, () => listTablesUrl(randomCode, ctx));
      return await send('listTables', url, undefined, listTablesDataSchema, ctx);
    },
    async close() {
      await agent.close();
    },
  };
}
