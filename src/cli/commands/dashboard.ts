/**
 * `listing-sync dashboard`: the protected ops dashboard (runs, failed jobs, search by key,
 * bull-board, /metrics) until SIGINT/SIGTERM. Credentials come from DASHBOARD_USER +
 * DASHBOARD_PASSWORD and/or DASHBOARD_TOKEN; without them it refuses to start (exit 2) unless
 * --insecure-local, which binds to loopback only. It needs Redis, never the service's keys.
 */
import type { Command } from 'commander';
import type { DashboardAuth } from '../../dashboard/types.js';
import type { ConfigFlags } from '../../config/config.js';
import { UsageError } from '../../shared/errors.js';
import { createCliLogger } from '../wiring/api-wiring.js';
import { isLoopback } from '../../dashboard/security.js';
import { configFromCli } from '../input/config-from-cli.js';
import { EXIT } from '../exit-codes.js';
import type { RegisterCommands } from '../host.js';
import { wholeNumber } from '../input/option-values.js';
import { addSharedFlags } from '../input/shared-flags.js';

export interface DashboardFlags extends Pick<ConfigFlags, 'redisUrl' | 'redisClusterNodes' | 'prefix' | 'logLevel'> {
  port?: string;
  host?: string;
  insecureLocal?: boolean;
  readOnly?: boolean;
}

export interface DashboardSettings {
  port: number;
  host: string;
  auth: DashboardAuth;
  readOnly: boolean;
}

export const DEFAULT_DASHBOARD_PORT = 8080;
const LOOPBACK = '127.0.0.1';
const SET_CREDENTIALS = 'set DASHBOARD_USER and DASHBOARD_PASSWORD (basic auth) or DASHBOARD_TOKEN (bearer)';

function envValue(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const value = env[name];
  // Why: the design counts an empty env value as unset.
  return value === undefined || value === '' ? undefined : value;
}

/**
 * Pure: flags and env → how the dashboard starts. Throws UsageError (exit 2, one line) when
 * there are no credentials and no --insecure-local, when only half of the basic-auth pair is
 * set, or when --insecure-local is combined with a non-loopback --host.
 */
export function dashboardSettingsFrom(flags: DashboardFlags, env: Readonly<Record<string, string | undefined>>): DashboardSettings {
  const port = wholeNumber(flags.port, '--port', 0) ?? DEFAULT_DASHBOARD_PORT;
  if (port > 65_535) throw new UsageError(`--port must be a whole number from 0 to 65535 (got '${flags.port ?? ''}')`);
  const user = envValue(env, 'DASHBOARD_USER');
  const password = envValue(env, 'DASHBOARD_PASSWORD');
  const token = envValue(env, 'DASHBOARD_TOKEN');
  if ((user === undefined) !== (password === undefined)) {
    throw new UsageError(
      `${user === undefined ? 'DASHBOARD_PASSWORD is set without DASHBOARD_USER' : 'DASHBOARD_USER is set without DASHBOARD_PASSWORD'}: ` +
        `set both, or use DASHBOARD_TOKEN`,
    );
  }
  const hasCredentials = (user !== undefined && password !== undefined) || token !== undefined;
  const readOnly = flags.readOnly === true;
  if (flags.insecureLocal) {
    const host = flags.host ?? LOOPBACK;
    if (!isLoopback(host))
      throw new UsageError(`--insecure-local binds to ${LOOPBACK} only: drop --host ${host}, or ${SET_CREDENTIALS} to listen elsewhere`);
    // Credentials that are set still apply: --insecure-local only allows running without them.
    return { port, host, auth: hasCredentials ? { user, password, token } : 'insecure-local', readOnly };
  }
  if (!hasCredentials)
    throw new UsageError(
      `the dashboard needs credentials: ${SET_CREDENTIALS}, or pass --insecure-local to bind to ${LOOPBACK} without them`,
    );
  return { port, host: flags.host ?? LOOPBACK, auth: { user, password, token }, readOnly };
}

export const registerDashboardCommands: RegisterCommands = (program: Command, host) => {
  const command = program
    .command('dashboard')
    .description('Serve the ops dashboard (runs, failed jobs and retry, search by key, queues, /metrics) until stopped')
    .option('--port <n>', `port to listen on (0 = any free port; default ${DEFAULT_DASHBOARD_PORT})`)
    .option('--host <h>', `address to bind (default ${LOOPBACK}; 0.0.0.0 in a container)`)
    .option('--insecure-local', `run without credentials, bound to ${LOOPBACK} only`)
    .option('--read-only', 'hide every action: no retry buttons, bull-board read-only, POST refused');
  addSharedFlags(command, ['redisUrl', 'redisClusterNodes', 'prefix', 'logLevel']).action((flags: DashboardFlags) =>
    host.run(async () => {
      const settings = dashboardSettingsFrom(flags, host.io.env);
      const config = configFromCli(flags, host.io);
      const logger = createCliLogger(config, host.io);
      const stopped = new Promise<void>((resolve) => host.io.onShutdown(resolve));
      // Why loaded here: express, bull-board and prom-client are ~10 MiB and 0.1 s of start-up
      // that no other command (`sync --work`, `worker`) should pay for.
      const { serveDashboard } = await import('../wiring/dashboard-wiring.js');
      const dashboard = await serveDashboard(host.io, config, logger, settings);
      const mode = [
        settings.auth === 'insecure-local' ? 'no credentials (loopback only)' : 'credentials required',
        settings.readOnly ? 'read-only' : 'read-write',
      ];
      host.io.stdout.write(`listing-sync dashboard listening on ${dashboard.url}/ (${mode.join(', ')})\n`);
      await stopped;
      return EXIT.ok;
    }),
  );
};
