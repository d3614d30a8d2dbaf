/**
 * The RESO Web API simulator: a test double of an MLS's OData server (MLS Grid, Trestle,
 * Bridge) over real HTTP (node:http). OAuth2 client credentials at /oauth2/token, the Property
 * and Media resources under /odata, a budget that suspends, scripted faults, and admin routes
 * (/__reso/*, loopback only, no auth) to change records with chosen timestamps.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenHttp, readBodyWithin } from '../http-host.js';
import { handleResoRequest, SERVICE_PATH, TOKEN_PATH, type ResoResponse } from './router.js';
import { ResoSimState } from './state.js';
import { MEDIA_PATH } from './media-host.js';
import type { ResoCredentials, ResoSimOptions } from './types.js';

export type {
  ResoBudget,
  ResoConfig,
  ResoCounters,
  ResoCredentials,
  ResoFaults,
  ResoMedia,
  ResoProperty,
  ResoRequestLog,
  ResoSimOptions,
  ResoStatus,
} from './types.js';
export { DEFAULT_RESO_CONFIG, DEFAULT_RESO_CREDENTIALS } from './config.js';
export { ResoSimState } from './state.js';
export { photoBytes, type MediaDownload, type MediaHostModes } from './media-host.js';

export interface RunningResoSimulator {
  /** e.g. http://127.0.0.1:PORT (admin routes at `${baseUrl}/__reso/...`). */
  baseUrl: string;
  /** The OData service root, `${baseUrl}/odata`. */
  serviceUrl: string;
  /** The feed URL a replication client takes: `${serviceUrl}/Property`. */
  propertyUrl: string;
  /** The OAuth2 token endpoint (client-credentials grant). */
  tokenUrl: string;
  credentials: ResoCredentials;
  /** In-process admin view. */
  state: ResoSimState;
  /** Closes the server and every open socket. */
  close(): Promise<void>;
}

/** Largest request body accepted (token forms and admin JSON are small); bigger ones get 413. */
const MAX_BODY_BYTES = 1024 * 1024;

function send(res: ServerResponse, response: ResoResponse): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(response.status, { ...response.headers, 'content-length': Buffer.byteLength(response.payload) });
  res.end(response.payload);
}

const failure = (status: number, message: string): ResoResponse => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  payload: JSON.stringify({ error: { code: String(status), message } }),
});

/** One download from the media host; a hanging one is left open until the client gives up or the server closes. */
function serveMedia(state: ResoSimState, req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  const userAgent = req.headers['user-agent'];
  const answer = state.media.answer(
    new URL(req.url ?? '/', 'http://reso-sim.invalid'),
    userAgent,
    (token) => state.internals.tokens.check(`Bearer ${token}`).ok,
  );
  if (answer.kind === 'hang') return;
  res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body) });
  res.end(answer.body);
}

async function serve(state: ResoSimState, serviceUrl: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.url?.startsWith(MEDIA_PATH) === true && req.method === 'GET') {
    serveMedia(state, req, res);
    return;
  }
  try {
    const body = await readBodyWithin(req, MAX_BODY_BYTES);
    if (body === undefined) {
      send(res, failure(413, `request body larger than ${MAX_BODY_BYTES} bytes`));
      return;
    }
    const request = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      body,
      remoteAddress: req.socket.remoteAddress,
    };
    send(res, handleResoRequest(state, serviceUrl, request));
  } catch (error) {
    send(res, failure(500, `simulator bug: ${error instanceof Error ? error.message : String(error)}`));
  }
}

/** Starts a RESO Web API simulator (port 0 by default: a free port on 127.0.0.1). */
export async function startResoSimulator(options: ResoSimOptions = {}): Promise<RunningResoSimulator> {
  const state = new ResoSimState(options);
  let serviceUrl = '';
  const listening = await listenHttp(
    (req, res) => void serve(state, serviceUrl, req, res),
    options.port ?? 0,
    options.host ?? '127.0.0.1',
    'RESO simulator',
  );
  const { baseUrl } = listening;
  serviceUrl = `${baseUrl}${SERVICE_PATH}`;
  return {
    baseUrl,
    serviceUrl,
    propertyUrl: `${serviceUrl}/Property`,
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    credentials: { ...state.credentials },
    state,
    close: () => listening.close(),
  };
}
