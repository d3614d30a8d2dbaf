/** The page shell every dashboard page shares: navigation, mode badge, stylesheet, the outage banner. */
import { formatTime, html, type SafeHtml } from '../html.js';
import type { ServiceOutageView } from '../types.js';

export interface PageContext {
  /** Mount path prefix ('' or e.g. '/ops'), prepended to every link. */
  base: string;
  readOnly: boolean;
  /** The CSRF token for forms on this page (bound to the caller's credentials). */
  csrfToken: string;
  /** The service outage going on now: every page says so at the top. */
  outage?: ServiceOutageView;
}

/** The banner while the service is down for everyone (the service breaker is open). */
function outageBanner(outage: ServiceOutageView | undefined): SafeHtml | string {
  if (outage === undefined) return '';
  return html`<div class="banner bad" role="alert" data-service="down"><strong>The service is down</strong> since ${formatTime(outage.since)} (${outage.reason}). Work is paused without using attempts and resumes by itself once the service answers.</div>`;
}

/** `refreshSeconds`: the page reloads itself that often (a run in progress; the CSP allows no script, so no SSE). */
export function page(ctx: PageContext, title: string, body: SafeHtml, refreshSeconds?: number): string {
  const { base } = ctx;
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
${refreshSeconds === undefined ? '' : html`<meta http-equiv="refresh" content="${refreshSeconds}">`}
<title>${title} · listing-sync</title>
<link rel="stylesheet" href="${base}/assets/dashboard.css">
</head>
<body>
<header>
  <a class="brand" href="${base}/">listing-sync</a>
  <a href="${base}/">Runs</a>
  <a href="${base}/health">Health</a>
  <a href="${base}/fleet">Fleet</a>
  <a href="${base}/alerts">Alerts</a>
  <a href="${base}/search">Search by key</a>
  <a href="${base}/queues">Queues</a>
  <a href="${base}/metrics">Metrics</a>
  <span class="mode">${ctx.readOnly ? 'read-only' : 'read-write'}</span>
</header>
${outageBanner(ctx.outage)}
<main>
${body}
</main>
</body>
</html>
`.value;
}

/** A page with just a heading and one message (404 and friends). */
export function messagePage(ctx: PageContext, title: string, message: string): string {
  return page(ctx, title, html`<h1>${title}</h1><p>${message}</p><p><a href="${ctx.base}/">Back to runs</a></p>`);
}
