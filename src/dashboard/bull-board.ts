/**
 * bull-board over every queue, mounted under `{base}/queues`: jobs by state with payload and
 * error, retry one or all, promote, clean (all hidden in read-only mode). Its add, update-data,
 * schedule edits, empty and obliterate are refused for everyone (board-refusals.ts). Its times are
 * UTC and its pages link back to the dashboard (board-page.ts).
 *
 * The dashboard receives Queue instances built by src/queue (typed through src/queue/queues.ts, so
 * it does not import bullmq) and hands them to bull-board's adapter; it never creates one.
 */
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { Router, type RequestHandler } from 'express';
import { BOARD_DATE_FORMATS, dashboardHome, withBackLink } from './board-page.js';
import { refuseBoardWrites } from './board-refusals.js';
import { queueDisplayName, type Queues } from '../queue/queues.js';

export type BoardQueue = Queues['writes'];

/** Builds bull-board's express sub-app; mount it at `${basePath}/queues`. */
export function bullBoardRouter(queues: readonly BoardQueue[], options: { basePath: string; readOnly: boolean }): RequestHandler {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(`${options.basePath}/queues`);
  createBullBoard({
    // The display name drops a Redis Cluster's hash tag ({listing-writes}); URLs keep the queue's name.
    queues: queues.map((queue) => new BullMQAdapter(queue, { readOnlyMode: options.readOnly, displayName: queueDisplayName(queue.name) })),
    serverAdapter,
    options: {
      uiConfig: {
        boardTitle: 'listing-sync queues',
        dateFormats: BOARD_DATE_FORMATS,
        miscLinks: [{ text: 'listing-sync dashboard', url: dashboardHome(options.basePath) }],
      },
    },
  });
  const router = Router();
  router.use(refuseBoardWrites());
  router.use(withBackLink(options.basePath));
  // Why the cast: ExpressAdapter.getRouter() is typed `any`; it returns an express app.
  router.use(serverAdapter.getRouter() as RequestHandler);
  return router;
}
