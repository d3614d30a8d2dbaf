/**
 * The dashboard's own routes as framework-free handlers: request in, `{status, headers, body}`
 * out (bull-board's handler style). Authentication, security headers and the read-only/CSRF
 * refusals happen before these run (see app.ts); handlers only check what needs their data.
 */
import { rejectedRowsCsv } from '../sync/report.js';
import type { Csrf } from './csrf.js';
import type { MetricsRegistry } from './metrics.js';
import { messagePage, type PageContext } from './pages/layout.js';
import { runDetailPage } from './pages/run-detail.js';
import { runsListPage } from './pages/runs-list.js';
import { searchPage } from './pages/search.js';
import { alertsPage } from './pages/alerts.js';
import { CHART_DAYS, chatbotPage } from './pages/chatbot.js';
import { healthPage } from './pages/health.js';
import { fleetPage } from './pages/fleet.js';
import { DASHBOARD_CSS } from './pages/style.js';
import { PHOTOS_SHOWN, photosCsp, photosPage } from './pages/photos.js';
import type { DashboardData, DashboardRequest, HandlerResult } from './types.js';

export type Handler = (req: DashboardRequest) => Promise<HandlerResult>;

export interface HandlerContext {
  data: DashboardData;
  metrics: MetricsRegistry;
  readOnly: boolean;
  basePath: string;
  csrf: Csrf;
  /** Where hosted photos are served (the Photos page's images). */
  mediaBaseUrl?: string;
}

const HTML = { 'content-type': 'text/html; charset=utf-8' } as const;
const RUNS_SHOWN = 100;

function textResult(status: number, text: string): HandlerResult {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: `${text}\n` };
}

/** A run id or chatbot as a safe file-name part for Content-Disposition. */
function fileNamePart(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120);
}

export function createHandlers(ctx: HandlerContext) {
  const pageContext = (req: DashboardRequest): PageContext => ({
    base: ctx.basePath,
    readOnly: ctx.readOnly,
    csrfToken: ctx.csrf.tokenFor(req.identity),
    ...(req.outage === undefined ? {} : { outage: req.outage }),
  });
  const htmlPage = (status: number, body: string): HandlerResult => ({ status, headers: { ...HTML }, body });
  const notFound = (req: DashboardRequest, what: string): HandlerResult => htmlPage(404, messagePage(pageContext(req), 'Not found', what));

  const runsList: Handler = async (req) => {
    const chatbot = req.query.chatbot || undefined;
    const runs = await ctx.data.listRuns({ limit: RUNS_SHOWN, ...(chatbot ? { chatbot } : {}) });
    return htmlPage(200, runsListPage(pageContext(req), runs, chatbot));
  };

  const runDetail: Handler = async (req) => {
    const runId = req.params.id ?? '';
    const view = await ctx.data.runPage(runId);
    if (!view) return notFound(req, `No run with id ${runId}.`);
    const retried = req.query.retried;
    const flash =
      retried !== undefined && /^\d+$/.test(retried)
        ? `Re-queued ${retried} failed job(s). They run again as workers pick them up; this page follows them.`
        : undefined;
    return htmlPage(200, runDetailPage(pageContext(req), view, flash));
  };

  const rejectedCsv: Handler = async (req) => {
    const runId = req.params.id ?? '';
    const run = await ctx.data.getRun(runId);
    if (!run) return textResult(404, `No run with id ${runId}.`);
    const csv: HandlerResult = {
      status: 200,
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="rejected-${fileNamePart(run.chatbot)}-${fileNamePart(run.runId)}.csv"`,
      },
      body: rejectedRowsCsv(run.rejected.map((row) => ({ kind: 'rejected' as const, ...row }))),
    };
    return csv;
  };

  /** POST /runs/:id/retry — the CSRF token and read-only mode are checked here too (defence in depth). */
  const retryFailed: Handler = async (req) => {
    if (ctx.readOnly)
      return htmlPage(403, messagePage(pageContext(req), 'Read-only', 'This dashboard runs with --read-only: actions are disabled.'));
    if (!ctx.csrf.verify(req.identity, req.form.csrf)) {
      return htmlPage(
        403,
        messagePage(pageContext(req), 'Forbidden', 'The form token is missing or stale: reload the page and try again.'),
      );
    }
    const runId = req.params.id ?? '';
    if (!(await ctx.data.getRun(runId))) return notFound(req, `No run with id ${runId}.`);
    const jobId = req.form.job?.trim();
    const count = await ctx.data.retryFailed(runId, jobId === undefined || jobId === '' ? undefined : jobId);
    // Why 303: after a POST the browser follows with GET, so a reload does not retry again.
    return { status: 303, headers: { location: `${ctx.basePath}/runs/${encodeURIComponent(runId)}?retried=${count}` }, body: '' };
  };

  const search: Handler = async (req) => {
    const key = req.query.key?.trim();
    const touches = key ? await ctx.data.findKey(key) : [];
    return htmlPage(200, searchPage(pageContext(req), key, touches));
  };

  const metrics: Handler = async () => {
    const { contentType, body } = await ctx.metrics.render();
    return { status: 200, headers: { 'content-type': contentType }, body };
  };

  const healthz: Handler = async () => {
    const up = await ctx.data.pingRedis().catch(() => false);
    return up ? textResult(200, 'ok') : textResult(503, 'redis unavailable');
  };

  const notAvailable = (req: DashboardRequest): HandlerResult => notFound(req, 'This dashboard has no health data (no Redis prefix).');

  const health: Handler = async (req) => {
    const data = ctx.data.healthData;
    if (data === undefined) return notAvailable(req);
    return htmlPage(200, healthPage(pageContext(req), await data.health(), (await data.jobTargets?.()) ?? []));
  };

  const chatbot: Handler = async (req) => {
    const data = ctx.data.healthData;
    if (data === undefined) return notAvailable(req);
    const name = req.params.chatbot ?? '';
    const now = Date.now();
    const [views, runs, failures] = await Promise.all([
      data.health(),
      data.chatbotRuns(name, now - CHART_DAYS * 86_400_000),
      data.failures(name),
    ]);
    const view = views.find((candidate) => candidate.chatbot === name);
    if (view === undefined && runs.length === 0) return notFound(req, `No runs of chatbot ${name}.`);
    return htmlPage(200, chatbotPage(pageContext(req), name, view, runs, failures, now));
  };

  const photos: Handler = async (req) => {
    if (ctx.data.shownPhotos === undefined) return notFound(req, 'This dashboard has no photo data (no Redis store).');
    const name = req.params.chatbot ?? '';
    const shown = await ctx.data.shownPhotos(name, PHOTOS_SHOWN);
    const body = photosPage(pageContext(req), name, shown, ctx.mediaBaseUrl);
    return { status: 200, headers: { ...HTML, ...photosCsp(ctx.mediaBaseUrl) }, body };
  };

  const fleet: Handler = async (req) => {
    if (ctx.data.fleet === undefined) return notFound(req, 'This dashboard has no fleet data (no Redis prefix).');
    return htmlPage(200, fleetPage(pageContext(req), await ctx.data.fleet()));
  };

  const alerts: Handler = async (req) => {
    const data = ctx.data.healthData;
    if (data === undefined) return notAvailable(req);
    const { configs, deliveries, queue } = await data.alerts();
    return htmlPage(200, alertsPage(pageContext(req), configs, deliveries, queue));
  };

  const stylesheet: Handler = () =>
    Promise.resolve({ status: 200, headers: { 'content-type': 'text/css; charset=utf-8' }, body: DASHBOARD_CSS });

  return { runsList, runDetail, rejectedCsv, retryFailed, search, metrics, healthz, stylesheet, health, chatbot, photos, alerts, fleet };
}

export type DashboardHandlers = ReturnType<typeof createHandlers>;
