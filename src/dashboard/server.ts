/** Starts the dashboard on a port (0 = any free port) and hands back its URL and a close. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../shared/errors.js';
import { createDashboardApp } from './app.js';
import { hasCredentials, passwordLengthProblem } from './auth.js';
import { isLoopback } from './security.js';
import type { DashboardOptions } from './types.js';

export interface RunningDashboard {
  /** Base URL, e.g. http://127.0.0.1:8080 (plus basePath when set). */
  url: string;
  close(): Promise<void>;
}

/**
 * Checks the auth/bind combination before anything listens: credentials are required unless
 * 'insecure-local', and 'insecure-local' binds to loopback only.
 */
export function checkDashboardBinding(auth: DashboardOptions['auth'], host: string): void {
  if (auth === 'insecure-local') {
    if (!isLoopback(host))
      throw new UsageError(
        `--insecure-local binds to 127.0.0.1 only; refusing --host ${host} (set DASHBOARD_USER and ` +
          `DASHBOARD_PASSWORD, or DASHBOARD_TOKEN, to listen elsewhere)`,
      );
    return;
  }
  if (!hasCredentials(auth)) {
    throw new UsageError(
      'the dashboard needs credentials: set DASHBOARD_USER and DASHBOARD_PASSWORD, or DASHBOARD_TOKEN (or pass ' +
        '--insecure-local to bind to 127.0.0.1 without them)',
    );
  }
  const tooShort = passwordLengthProblem(auth);
  if (tooShort !== undefined) throw new UsageError(tooShort);
}

export async function startDashboard(options: DashboardOptions & { port: number; host: string }): Promise<RunningDashboard> {
  checkDashboardBinding(options.auth, options.host);
  // Why a warning, not a refusal: behind a reverse proxy that terminates TLS the bind address is
  // not loopback, and that setup is right. Without one, passwords cross the network in clear.
  if (!isLoopback(options.host))
    options.logger.warn(
      `dashboard: serving plain HTTP on ${options.host}: credentials and pages cross the network unencrypted; ` +
        'put it behind a reverse proxy that terminates TLS (https), or bind to 127.0.0.1',
    );
  const app = createDashboardApp(options);
  const server: Server = await new Promise((resolve, reject) => {
    const listening = app.listen(options.port, options.host, (error?: Error) => (error ? reject(error) : resolve(listening)));
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const base = (options.basePath ?? '').replace(/\/+$/, '');
  return {
    url: `http://${hostPart}:${address.port}${base}`,
    async close() {
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Why: keep-alive connections (browsers, bull-board polling) would hold close() open.
        server.closeAllConnections();
      });
    },
  };
}
