/**
 * The thin express 5 adapter: security headers, authentication, the state-change gate, then the
 * framework-free handlers (handlers.ts) and bull-board (bull-board.ts).
 *
 * Order matters and encodes the policy: headers first (so a 401 carries them too), then — for
 * every path, assets and bull-board's API included — credentials, then for any method other than
 * GET/HEAD the read-only refusal and the origin check (csrf.ts), then the routes.
 */
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { challengeFor, createAuthenticate } from './auth.js';
import { bullBoardRouter } from './bull-board.js';
import { createCsrf, sameOrigin } from './csrf.js';
import { createHandlers, type Handler } from './handlers.js';
import { createLoginThrottle } from './login-throttle.js';
import { answerRedisOutage, redisGate, whileRedisAnswers } from './redis-gate.js';
import { isRedisConnectionError } from '../queue/redis-watch.js';
import { hostName, isLoopback, securityHeaders } from './security.js';
import type { DashboardData, DashboardOptions, DashboardRequest, ServiceOutageView } from './types.js';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

function singleValues(source: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof source !== 'object' || source === null) return out;
  for (const [name, value] of Object.entries(source)) {
    if (typeof value === 'string') out[name] = value;
    else if (Array.isArray(value) && typeof value[0] === 'string') out[name] = value[0];
  }
  return out;
}

function identityOf(res: Response): string {
  const identity: unknown = res.locals.identity;
  return typeof identity === 'string' ? identity : '';
}

function plain(res: Response, status: number, text: string): void {
  res.status(status).type('text/plain; charset=utf-8').send(`${text}\n`);
}

/** Normalises a base path: '' or '/x/y' without a trailing slash. */
function normaliseBase(basePath: string | undefined): string {
  const trimmed = (basePath ?? '').replace(/\/+$/, '');
  return trimmed === '' ? '' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** The service outage now, or undefined when there is none or it cannot be read. */
async function serviceOutageOf(data: DashboardData): Promise<ServiceOutageView | undefined> {
  return await data.serviceOutage?.().catch(() => undefined);
}

/** Builds the dashboard as an express app (not listening; see server.ts). */
export function createDashboardApp(options: DashboardOptions): Express {
  const authenticate = createAuthenticate(options.auth);
  const challenge = challengeFor(options.auth);
  const insecureLocal = options.auth === 'insecure-local';
  const basePath = normaliseBase(options.basePath);
  const csrf = createCsrf();
  const throttle = createLoginThrottle(options.logger);
  const redisAvailable = options.redisAvailable ?? (() => true);
  options.metrics.setSources(whileRedisAnswers(options.data, redisAvailable));
  const handlers = createHandlers({
    data: options.data,
    metrics: options.metrics,
    readOnly: options.readOnly,
    basePath,
    csrf,
    ...(options.mediaBaseUrl === undefined ? {} : { mediaBaseUrl: options.mediaBaseUrl }),
  });

  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');

  app.use((req: Request, res: Response, next: NextFunction) => {
    res.set(securityHeaders(req.path === `${basePath}/queues` || req.path.startsWith(`${basePath}/queues/`)));
    if (insecureLocal) {
      const name = hostName(req.headers.host);
      if (name === undefined || !isLoopback(name))
        return plain(res, 421, 'This dashboard runs with --insecure-local and answers only to a loopback host name.');
    }
    const client = req.socket.remoteAddress ?? 'unknown';
    const lockedMs = throttle.lockedFor(client);
    if (lockedMs > 0) {
      res.set('retry-after', String(Math.ceil(lockedMs / 1000)));
      return plain(res, 429, 'Too many wrong credentials from this address; try again in a minute.');
    }
    const identity = authenticate(req.headers.authorization);
    if (identity === undefined) {
      // A request without credentials (a browser's first, before it prompts) is no guess.
      if (req.headers.authorization !== undefined) throttle.failed(client);
      res.set('www-authenticate', challenge);
      return plain(res, 401, 'Authentication required.');
    }
    res.locals.identity = identity;
    if (!SAFE_METHODS.has(req.method)) {
      if (options.readOnly) return plain(res, 403, 'This dashboard runs with --read-only: actions are disabled.');
      if (!sameOrigin(req.headers.origin, req.headers.host)) return plain(res, 403, 'Cross-origin request refused.');
    }
    next();
  });
  const pageContextOf = (res: Response) => ({ base: basePath, readOnly: options.readOnly, csrfToken: csrf.tokenFor(identityOf(res)) });
  app.use(redisGate(redisAvailable, basePath, pageContextOf));

  const adapt =
    (handler: Handler) =>
    (req: Request, res: Response, next: NextFunction): void => {
      const request: DashboardRequest = {
        method: req.method,
        params: singleValues(req.params),
        query: singleValues(req.query),
        form: singleValues(req.body),
        identity: identityOf(res),
      };
      // Why best effort: the banner must not fail a page; Redis trouble shows on the page's own reads.
      serviceOutageOf(options.data)
        .then((outage) => handler(outage === undefined ? request : { ...request, outage }))
        .then((result) => {
          res.status(result.status);
          if (result.headers) res.set(result.headers);
          res.send(result.body);
        })
        .catch(next);
    };

  const router = express.Router();
  router.get('/', adapt(handlers.runsList));
  router.get('/runs/:id', adapt(handlers.runDetail));
  router.get('/runs/:id/rejected.csv', adapt(handlers.rejectedCsv));
  router.post('/runs/:id/retry', express.urlencoded({ extended: false, limit: '8kb' }), adapt(handlers.retryFailed));
  router.get('/search', adapt(handlers.search));
  router.get('/health', adapt(handlers.health));
  router.get('/fleet', adapt(handlers.fleet));
  router.get('/chatbots/:chatbot', adapt(handlers.chatbot));
  router.get('/chatbots/:chatbot/photos', adapt(handlers.photos));
  router.get('/alerts', adapt(handlers.alerts));
  router.get('/metrics', adapt(handlers.metrics));
  router.get('/healthz', adapt(handlers.healthz));
  router.get('/assets/dashboard.css', adapt(handlers.stylesheet));
  router.use('/queues', bullBoardRouter(options.queues, { basePath, readOnly: options.readOnly }));
  app.use(basePath === '' ? '/' : basePath, router);

  app.use((_req: Request, res: Response) => plain(res, 404, 'Not found.'));
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    // Redis went away while the request ran, or just before its watch noticed (a killed Redis fails
    // commands at once): the outage answer, not a 500 (the outage is logged once, elsewhere).
    if (!redisAvailable() || isRedisConnectionError(error)) {
      if (!res.headersSent) answerRedisOutage(req, res, pageContextOf(res));
      return;
    }
    // Why a generic answer: an error message may carry internals; the log has the details.
    options.logger.error({ err: error, method: req.method, path: req.path }, 'dashboard request failed');
    if (!res.headersSent) plain(res, 500, 'Internal error; see the dashboard log.');
  });
  return app;
}
