/**
 * What bull-board's page gets from the dashboard: times in UTC like every other page, and a way
 * back. bull-board formats its times in the browser with Intl (its `dateFormats`), so the zone is
 * set there; its header has a menu of links (`miscLinks`), and a link of ours stays on every page
 * of its app, put into the page's HTML as it is sent.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { escapeHtml } from './html.js';

const UTC_CLOCK = {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
  timeZoneName: 'short',
} as const;
const UTC_DATE = { year: 'numeric', month: '2-digit', day: '2-digit' } as const;

/** bull-board's `uiConfig.dateFormats`: 24-hour UTC times, named "UTC", today's without the date. */
export const BOARD_DATE_FORMATS = {
  short: UTC_CLOCK,
  common: { ...UTC_DATE, ...UTC_CLOCK },
  full: { ...UTC_DATE, ...UTC_CLOCK },
} satisfies Record<'short' | 'common' | 'full', Intl.DateTimeFormatOptions>;

export const BACK_LINK_TEXT = '← listing-sync dashboard';

/** The dashboard's home under `basePath` ('' or '/x'). */
export function dashboardHome(basePath: string): string {
  return `${basePath}/`;
}

/**
 * The link back, fixed at the bottom right of the page above bull-board's own layout. Why inline
 * styles: bull-board's CSP (security.ts) allows them on its pages, and a stylesheet of ours there
 * would be one more route.
 */
function backLink(basePath: string): string {
  return (
    `<a id="dashboard-link" href="${escapeHtml(dashboardHome(basePath))}" style="position:fixed;right:16px;bottom:16px;z-index:10000;` +
    'padding:6px 12px;border-radius:6px;background:#1f4e8c;color:#fff;font:14px system-ui,sans-serif;text-decoration:none;' +
    `box-shadow:0 1px 4px rgba(0,0,0,.3)">${escapeHtml(BACK_LINK_TEXT)}</a>`
  );
}

/** Puts the link back into every HTML page bull-board sends (its entry page, under any of its app's paths). */
export function withBackLink(basePath: string): RequestHandler {
  const link = backLink(basePath);
  return (_req: Request, res: Response, next: NextFunction) => {
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      const isPage = typeof body === 'string' && /^text\/html/i.test(String(res.get('content-type') ?? 'text/html'));
      return send(isPage ? body.replace(/<body[^>]*>/i, (tag) => `${tag}${link}`) : body);
    };
    next();
  };
}
