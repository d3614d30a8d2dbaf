/**
 * The dashboard while Redis is away. Every page and bull-board call reads Redis, so instead of
 * failing one by one (500s, bull-board's raw errors) they answer 503 with a page that says what is
 * going on, and work again by themselves once Redis answers: the connection reconnects on its own,
 * the dashboard needs no restart. /healthz (which says "redis unavailable" itself), /metrics
 * (process metrics still help; the Redis-backed series are simply absent) and the stylesheet stay
 * reachable.
 */
import type { NextFunction, Request, Response } from 'express';
import type { MetricsSources } from './metrics.js';
import { messagePage, type PageContext } from './pages/layout.js';

/** Paths, below the base path, that keep answering during an outage. */
const REACHABLE = ['/healthz', '/metrics', '/assets/'];

/** Seconds a client should wait before asking again (Retry-After). */
const RETRY_AFTER_S = 5;

const TITLE = 'Redis is not answering';
const MESSAGE =
  'The dashboard reads runs, failed jobs and queues from Redis, which is not answering right now. ' +
  'This page works again as soon as Redis does: reload it then (no restart needed). /healthz tells when.';

/** Writes the 503 outage answer: a page for browsers, one plain line for anything else. */
export function answerRedisOutage(req: Request, res: Response, context: PageContext): void {
  res.status(503).set('retry-after', String(RETRY_AFTER_S));
  if (req.accepts(['text/html', 'text/plain']) === 'text/html')
    res.type('text/html; charset=utf-8').send(messagePage(context, TITLE, MESSAGE));
  else res.type('text/plain; charset=utf-8').send(`${TITLE}: ${MESSAGE}\n`);
}

/** Middleware answering 503 while `available()` is false, except for the paths that stay reachable. */
export function redisGate(available: () => boolean, basePath: string, contextOf: (res: Response) => PageContext) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const path = req.path.startsWith(basePath) ? req.path.slice(basePath.length) : req.path;
    if (available() || REACHABLE.some((reachable) => path === reachable || (reachable.endsWith('/') && path.startsWith(reachable))))
      return next();
    answerRedisOutage(req, res, contextOf(res));
  };
}

/**
 * The metrics sources, failing at once while Redis is away: a scrape then serves the process's own
 * metrics without the Redis-backed series instead of waiting on a connection that is not there
 * (BullMQ queues opened while Redis was down wait for it on every call). Each source is looked up
 * when a scrape reads it, so sources set later count too; a missing one fails like an absent one.
 */
export function whileRedisAnswers(sources: MetricsSources, available: () => boolean): MetricsSources {
  const read =
    <T>(call: (from: MetricsSources) => Promise<T> | undefined) =>
    (): Promise<T> =>
      (available() ? call(sources) : undefined) ?? Promise.reject(new Error(TITLE));
  return {
    jobCounts: read((from) => from.jobCounts()),
    callMetrics: read((from) => from.callMetrics?.()),
    mediaMetrics: read((from) => from.mediaMetrics?.()),
    runMetrics: read((from) => from.runMetrics?.()),
    chatbotHealth: read((from) => from.chatbotHealth?.()),
    serviceOutage: read((from) => from.serviceOutage?.()),
    fleetMembers: read((from) => from.fleetMembers?.()),
  };
}
