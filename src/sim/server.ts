/**
 * The service simulator: an in-memory implementation of the seven endpoints of the api-spec,
 * over real HTTP (node:http), with scripted faults and a call log. A test tool: its admin
 * routes (/__sim/*) need no auth, so never expose it beyond localhost.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { DEFAULT_SIM_CHATBOTS, DEFAULT_SIM_CREDENTIALS, DEFAULT_SIM_RANDOM_CODE, DEFAULT_SIM_TABLES } from './defaults.js';
import { envelopeFactory, type HandlerResult } from './envelope.js';
import type { SimContext } from './handlers/context.js';
import { handleRequest, isServiceRequest, type Outcome } from './router.js';
import { SimState } from './state.js';
import type { SimCredentials, SimOptions } from './types.js';

export type { SimCallLog, SimCredentials, SimFaults, SimOptions, StoredListing, ReadForms } from './types.js';
export type { EndpointName } from '../api/endpoints.js';
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

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

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
  // Why only service requests count: tests poll /__sim/state while a run is in flight.
  const leave = isServiceRequest(url.pathname) ? ctx.state.internals.metrics.enter() : () => {};
  res.once('close', leave);
  try {
    const body = await readBody(req);
    if (body === undefined) {
      write(res, ctx.envelopes.fail(413, `request body larger than ${MAX_BODY_BYTES} bytes`, { status: 413 }));
      return;
    }
    const outcome: Outcome = await handleRequest(ctx, credentials, { method: req.method ?? 'GET', pathname: url.pathname, headers: req.headers, body });
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
    readForms: options.readForms ?? {},
  };
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => void serve(ctx, credentials, req, res));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('simulator did not get a TCP address');
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const baseUrl = `http://${urlHost}:${address.port}`;
  let closing: Promise<void> | undefined;
  return {
    baseUrl,
    siteUrl: baseUrl,
    credentials,
    state,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
