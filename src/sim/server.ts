/**
 * The service simulator: an in-memory implementation of the seven endpoints of the api-spec,
 * over real HTTP (node:http), with scripted faults and a call log. A test tool: its admin
 * routes (/__sim/*) need no auth, so never expose it beyond localhost.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_SIM_CHATBOTS, DEFAULT_SIM_CREDENTIALS, DEFAULT_SIM_RANDOM_CODE, DEFAULT_SIM_TABLES } from './defaults.js';
import { envelopeFactory, type HandlerResult } from './envelope.js';
import type { SimContext } from './handlers/context.js';
import { listenHttp, readBodyWithin } from './http-host.js';
import { checkedReadForms } from './read-shape.js';
import { handleRequest, isServiceRequest, type Outcome } from './router.js';
import { SimState } from './state.js';
import type { SimCredentials, SimOptions } from './types.js';

export type { SimCallLog, SimCredentials, SimFaults, SimOptions, StoredListing, ReadForms } from './types.js';
export type { EndpointName } from './spec/endpoints.js';
export { DEFAULT_SIM_CREDENTIALS, DEFAULT_SIM_RANDOM_CODE } from './defaults.js';
export { SimState } from './state.js';

export interface RunningSimulator {
  /** e.g. http://127.0.0.1:PORT — the chatbot and real-estate endpoints. */
  baseUrl: string;
  /** The same server; the table listing lives at `${siteUrl}/autodev/CustomTableValue/GetTableList/{randomCode}`. */
  siteUrl: string;
  credentials: SimCredentials;
  /** In-process admin view. */
  state: SimState;
  /** Closes the server and every open socket. */
  close(): Promise<void>;
}

/** Largest request body accepted; bigger bodies get HTTP 413. */
const MAX_BODY_BYTES = 5 * 1024 * 1024;

function write(res: ServerResponse, result: HandlerResult): void {
  if (res.destroyed || res.headersSent) return;
  const payload = JSON.stringify(result.body);
  res.writeHead(result.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    ...result.headers,
  });
  res.end(payload);
}

async function serve(ctx: SimContext, credentials: SimCredentials, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sim.invalid');
  // An outage (faults `outage`): the connection is reset before anything is read or done.
  if (ctx.state.inOutage() && isServiceRequest(url.pathname)) {
    ctx.state.countOutageReset();
    req.socket.destroy();
    return;
  }
  // Why only service requests count: tests poll /__sim/state while a run is in flight.
  const leave = isServiceRequest(url.pathname) ? ctx.state.internals.metrics.enter() : () => {};
  res.once('close', leave);
  try {
    const body = await readBodyWithin(req, MAX_BODY_BYTES);
    if (body === undefined) {
      write(res, ctx.envelopes.fail(413, `request body larger than ${MAX_BODY_BYTES} bytes`, { status: 413 }));
      return;
    }
    const outcome: Outcome = await handleRequest(ctx, credentials, {
      method: req.method ?? 'GET',
      pathname: url.pathname,
      headers: req.headers,
      body,
    });
    if (outcome.kind === 'drop') req.socket.destroy();
    else write(res, outcome.result);
  } catch (error) {
    write(res, ctx.envelopes.fail(500, `simulator bug: ${error instanceof Error ? error.message : String(error)}`, { status: 500 }));
  } finally {
    leave();
  }
}

export async function startSimulator(options: SimOptions = {}): Promise<RunningSimulator> {
  const credentials: SimCredentials = { ...DEFAULT_SIM_CREDENTIALS, ...options.credentials };
  const state = new SimState({
    chatbots: options.chatbots ?? DEFAULT_SIM_CHATBOTS,
    listings: options.listings,
    tables: { [DEFAULT_SIM_RANDOM_CODE]: DEFAULT_SIM_TABLES, ...options.tables },
    faults: options.faults,
  });
  const ctx: SimContext = {
    state,
    envelopes: envelopeFactory(options.version ?? '1.0'),
    maxPageSize: options.maxPageSize ?? 100,
    pageSizeCap: options.pageSizeCap ?? Infinity,
    readForms: checkedReadForms(options.readForms ?? {}),
  };
  const listening = await listenHttp(
    (req, res) => void serve(ctx, credentials, req, res),
    options.port ?? 0,
    options.host ?? '127.0.0.1',
    'simulator',
  );
  const { baseUrl } = listening;
  return {
    baseUrl,
    siteUrl: baseUrl,
    credentials,
    state,
    close: () => listening.close(),
  };
}
