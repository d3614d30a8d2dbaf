/**
 * The bull-board routes the dashboard refuses (403) for every user, read-only or not: those that
 * make or change jobs and schedules, or wipe a queue. Why: a job bull-board adds carries no seal
 * and a worker fails it unrun (src/queue/job-gate.ts), but edited data, a changed schedule or an
 * emptied queue would still be done before anyone noticed; the tool's own commands do these
 * things (`sync`, `fleet apply`, `schedule`, `runs cancel`). Reading, retry, promote and clean
 * stay. The routes are bull-board 9.10's (node_modules/@bull-board/api/dist/routes.js).
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Method and path (below the board's mount point) of each refused route, and what it does. */
const REFUSED: ReadonlyArray<{ method: string; path: RegExp; what: string }> = [
  { method: 'POST', path: /^\/api\/queues\/[^/]+\/add$/, what: 'adding a job' },
  { method: 'PATCH', path: /^\/api\/queues\/[^/]+\/[^/]+\/update-data$/, what: "editing a job's data" },
  { method: 'PATCH', path: /^\/api\/queues\/[^/]+\/job-schedulers\/[^/]+$/, what: 'editing a schedule' },
  { method: 'PUT', path: /^\/api\/queues\/[^/]+\/job-schedulers\/[^/]+\/remove$/, what: 'removing a schedule' },
  { method: 'PUT', path: /^\/api\/queues\/[^/]+\/empty$/, what: 'emptying a queue' },
  { method: 'PUT', path: /^\/api\/queues\/[^/]+\/obliterate$/, what: 'obliterating a queue' },
];

/**
 * The path as express routes it, for matching: decoded, slashes collapsed, no trailing slash,
 * lower case (express routes are case-insensitive and not strict), so no spelling slips past.
 */
function routedPath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape: bull-board's router will not match it either; match the raw path.
  }
  return decoded
    .replace(/\/{2,}/g, '/')
    .replace(/(.)\/$/, '$1')
    .toLowerCase();
}

/** What `method path` would do, when it is a refused route. */
export function refusedBoardAction(method: string, path: string): string | undefined {
  const routed = routedPath(path);
  return REFUSED.find((route) => route.method === method.toUpperCase() && route.path.test(routed))?.what;
}

/** Answers the refused routes 403 before bull-board sees them; passes every other request on. */
export function refuseBoardWrites(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const what = refusedBoardAction(req.method, req.path);
    if (what === undefined) return next();
    res.status(403).json({
      error: 'Forbidden',
      message: `${what} is not allowed from the dashboard: only jobs listing-sync enqueues run; use the listing-sync CLI`,
    });
  };
}
