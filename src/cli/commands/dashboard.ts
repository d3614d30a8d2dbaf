/**
 * `listing-sync dashboard`: the protected ops dashboard (runs, failed jobs, search by key,
 * bull-board, /metrics) until SIGINT/SIGTERM. Credentials come from DASHBOARD_USER +
 * DASHBOARD_PASSWORD and/or DASHBOARD_TOKEN; without them it refuses to start (exit 2) unless
 * --insecure-local, which binds to loopback only. It needs Redis, and the service's settings only
 * with --work: then it also runs a worker, so the retries it makes run without a `worker` process.
 */
import type { Command } from 'commander';
import type { DashboardAuth } from '../../dashboard/types.js';
import { requireApiBase, type ConfigFlags } from '../../config/config.js';
import { UsageError } from '../../shared/errors.js';
import { createCliLogger } from '../wiring/api-wiring.js';
import { isLoopback } from '../../dashboard/security.js';
import { configuredTarget, requireSeal } from '../wiring/job-seal-wiring.js';
import { workerPartsOnStack } from '../wiring/on-stack.js';
import { configFromCli } from '../input/config-from-cli.js';
import { EXIT } from '../exit-codes.js';
import type { RegisterCommands } from '../host.js';
import { wholeNumber } from '../input/option-values.js';
import { addSharedFlags, WORKER_LIMIT_FLAGS } from '../input/shared-flags.js';

export interface DashboardFlags extends Pick<
  ConfigFlags,
  'redisUrl' | 'redisClusterNodes' | 'prefix' | 'logLevel' | 'apiBaseUrl' | 'siteUrl' | 'concurrency' | 'globalConcurrency' | 'rate'
> {
  port?: string;
  host?: string;
  insecureLocal?: boolean;
  readOnly?: boolean;
  work?: boolean;
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
    .option('--read-only', 'hide every action: no retry buttons, bull-board read-only, POST refused')
    .option('--work', 'also run a worker in this process, so retried jobs run without a `worker` (needs the service settings)');
  addSharedFlags(command, ['redisUrl', 'redisClusterNodes', 'prefix', 'logLevel']);
  addSharedFlags(command, ['apiBaseUrl', 'siteUrl', ...WORKER_LIMIT_FLAGS], { when: 'with --work' }).action((flags: DashboardFlags) =>
    host.run(async () => {
      const settings = dashboardSettingsFrom(flags, host.io.env);
      const config = configFromCli(flags, host.io);
      const work = flags.work === true;
      // A worker without the service's settings or a job key fails before anything listens.
      if (work) requireApiBase(config);
      const logger = createCliLogger(config, host.io);
      // The service it is configured for (its worker's, or named in its env without --work) marks
      // the run page's jobs planned for another one.
      const ownTarget = work ? requireSeal(config).target : configuredTarget(config);
      const stopping = new AbortController();
      host.io.onShutdown(() => stopping.abort());
      // Why loaded here: express, bull-board and prom-client are ~10 MiB and 0.1 s of start-up
      // that no other command (`sync --work`, `worker`) should pay for.
      const { serveDashboard } = await import('../wiring/dashboard-wiring.js');
      const dashboard = await serveDashboard(host.io, config, logger, { ...settings, ...(ownTarget ? { ownTarget } : {}) });
      const mode = [
        settings.auth === 'insecure-local' ? 'no credentials (loopback only)' : 'credentials required',
        settings.readOnly ? 'read-only' : 'read-write',
        ...(work ? ['working jobs'] : []),
      ];
      host.io.stdout.write(`listing-sync dashboard listening on ${dashboard.url}/ (${mode.join(', ')})\n`);
      // Its workers are released first (newest on the stack): the jobs in flight finish, then the server and Redis.
      if (work) await workerPartsOnStack(host.io, config, logger, stopping.signal);
      if (!stopping.signal.aborted)
        await new Promise<void>((resolve) => stopping.signal.addEventListener('abort', () => resolve(), { once: true }));
      return EXIT.ok;
    }),
  );
};
