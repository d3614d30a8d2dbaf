/**
 * Wiring shared by every command that calls the service: the same connection flags, a logger
 * that scrubs the configured secrets, and an ApiClient built from Config, released by main.ts.
 */
import type { Command } from 'commander';
import { createApiClient, type ApiCallEvent } from '../../api/client.js';
import type { ApiClient } from '../../api/client-contract.js';
import { requireApiBase, requireSiteUrl, type Config, type ConfigFlags } from '../../config/config.js';
import { displayRedis, secretValues } from '../../config/config-display.js';
import { UsageError } from '../../shared/errors.js';
import { createLogger, type Logger } from '../../runtime/logger.js';
import { configFromCli } from '../input/config-from-cli.js';
import type { ActionResult } from '../run-action.js';
import type { CliIo } from '../io.js';
import { readableLogLine } from '../output/log-lines.js';
import { terminalWidth } from '../output/wrap-text.js';
import { addSharedFlags, CONNECTION_FLAGS } from '../input/shared-flags.js';

/** Options every service command accepts (commander camelCases them: apiBaseUrl, siteUrl, logLevel, json). */
export interface ConnectionOptions extends Pick<ConfigFlags, 'apiBaseUrl' | 'siteUrl' | 'logLevel'> {
  json?: boolean;
}

/** Adds --api-base-url, --site-url, --log-level and --json to a command. */
export function addConnectionOptions(cmd: Command): Command {
  return addSharedFlags(cmd, CONNECTION_FLAGS);
}

/**
 * Whether log lines are written for a person: LOG_FORMAT=pretty or json when set, else readable on
 * a terminal and JSON otherwise (schedulers and log collectors parse one JSON object per line).
 */
function readableLogs(io: Pick<CliIo, 'stderr'> & Partial<Pick<CliIo, 'env'>>, json: boolean | undefined): boolean {
  const format = io.env?.LOG_FORMAT ?? '';
  if (format === 'pretty') return true;
  if (format === 'json' || json === true) return false;
  if (format !== '') throw new UsageError(`LOG_FORMAT must be json or pretty (got '${format}')`);
  return io.stderr.isTTY === true;
}

/** A pino logger on the command's stderr that scrubs every configured secret value. */
export function createCliLogger(config: Config, io: Pick<CliIo, 'stderr'> & Partial<Pick<CliIo, 'env'>>, json?: boolean): Logger {
  const readable = readableLogs(io, json);
  return createLogger({
    level: config.logLevel,
    destination: { write: (line: string) => void io.stderr.write(readable ? readableLogLine(line, terminalWidth(io.stderr)) : line) },
    secretValues: secretValues(config),
  });
}

/**
 * The ApiClient for a Config. `needs` says which address the command uses: 'api' (endpoints 1–6,
 * requires API_BASE_URL) or 'site' (endpoint 7 only, requires SITE_URL or API_BASE_URL).
 * `onCall` is told about every settled call (metrics).
 */
export function createClientFromConfig(
  config: Config,
  logger: Logger,
  needs: 'api' | 'site' = 'api',
  onCall?: (event: ApiCallEvent) => void,
): ApiClient {
  if (needs === 'api') requireApiBase(config);
  else requireSiteUrl(config);
  const baseUrl = config.api.baseUrl ?? config.api.siteUrl ?? '';
  return createApiClient({
    baseUrl,
    ...(config.api.siteUrl === undefined ? {} : { siteUrl: config.api.siteUrl }),
    credentials: config.api.credentials,
    timeouts: config.api.timeouts,
    connections: config.api.connections,
    logger,
    secrets: secretValues(config),
    ...(onCall === undefined ? {} : { onCall }),
  });
}

/** What a debug log may say about the configuration: addresses and WHICH credentials are set, never their values. */
export function describeConfig(config: Config): Record<string, unknown> {
  const { secretKey, sessionKey, projectAuthToken } = config.api.credentials;
  return {
    apiBaseUrl: config.api.baseUrl,
    siteUrl: config.api.siteUrl,
    credentialsSet: {
      API_SECRET_KEY: secretKey !== undefined,
      API_SESSION_KEY: sessionKey !== undefined,
      PROJECT_AUTH_TOKEN: projectAuthToken !== undefined,
    },
    timeouts: config.api.timeouts,
    connections: config.api.connections,
    redis: { url: displayRedis(config.redis), prefix: config.redis.prefix },
  };
}

export interface ServiceContext {
  client: ApiClient;
  config: Config;
  logger: Logger;
  io: CliIo;
  json: boolean;
}

/**
 * Resolves config from the command's options, builds logger and client (pushed onto the release
 * stack), and runs `body`. `prepare` runs first, before config and client: commands put their
 * input validation there so bad input fails before anything else is looked at.
 */
export async function withServiceClient<P>(
  options: ConnectionOptions,
  io: CliIo,
  needs: 'api' | 'site',
  prepare: () => Promise<P> | P,
  body: (ctx: ServiceContext, prepared: P) => Promise<ActionResult>,
): Promise<ActionResult> {
  const prepared = await prepare();
  const config = configFromCli(options, io);
  const logger = createCliLogger(config, io);
  logger.debug({ settings: describeConfig(config) }, 'configuration');
  const client = createClientFromConfig(config, logger, needs);
  io.releases.push('API client', () => client.close());
  return await body({ client, config, logger, io, json: options.json === true }, prepared);
}
