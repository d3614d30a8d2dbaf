/**
 * `listing-sync doctor --connect`: is this installation ready to run? Every setting that is set
 * (secrets as "set", never their value), a call with each API credential alone, Redis reachable,
 * and its persistence and eviction settings; one line each with ✓/✗ and the fix.
 */
import { ListingSyncError } from '../../shared/errors.js';
import { isSecretSetting, resolveConfig, SETTING_NAMES, type Config, type ConfigFlags } from '../../config/config.js';
import { displayRedis } from '../../config/config-display.js';
import { displayRedisUrl, redisPassword } from '../../config/redis-url-display.js';
import { closeConnection, connectProducer, createProducerConnection } from '../../queue/connection.js';
import { readRedisSettings } from '../../store/redis-settings.js';
import { checkCredential, redisSettingChecks, type CredentialProbe, type ReadinessCheck } from '../../sync/readiness.js';
import { createClientFromConfig } from './api-wiring.js';
import { configFlagsFrom } from '../input/config-from-cli.js';
import type { CliIo } from '../io.js';
import { silentLogger } from '../../runtime/logger.js';

/** Shown whether set or not: what every installation has to decide. */
const ALWAYS_SHOWN: ReadonlySet<string> = new Set(['API_BASE_URL', 'API_SECRET_KEY', 'API_SESSION_KEY', 'PROJECT_AUTH_TOKEN', 'REDIS_URL']);

export interface ConnectTargets {
  chatbot: string;
  randomCode: string;
}

function shown(name: string, value: string): string {
  if (isSecretSetting(name)) return `set (${value.length} characters, not shown)`;
  return displayRedisUrl(value);
}

/** One line per setting that is set (flag or env), and the ones every installation decides. */
export function settingChecks(flags: ConfigFlags, env: CliIo['env']): ReadinessCheck[] {
  const fromFlags = new Map(Object.entries(flags).map(([flag, value]) => [flagEnv(flag), value]));
  return SETTING_NAMES.flatMap((name): ReadinessCheck[] => {
    const value = fromFlags.get(name) ?? env[name];
    if (value !== undefined && value.trim() !== '') return [{ mark: 'ok', what: name, detail: shown(name, value.trim()) }];
    if (!ALWAYS_SHOWN.has(name)) return [];
    if (name === 'API_BASE_URL') {
      return [{ mark: 'fail', what: name, detail: 'not set', fix: "set API_BASE_URL to the service's base URL" }];
    }
    if (name === 'REDIS_URL') return [{ mark: 'ok', what: name, detail: 'not set: redis://127.0.0.1:6379 (the default)' }];
    return [{ mark: 'skip', what: name, detail: 'not set' }];
  });
}

const FLAG_ENV: Readonly<Record<string, string>> = {
  apiBaseUrl: 'API_BASE_URL',
  siteUrl: 'SITE_URL',
  redisUrl: 'REDIS_URL',
  redisClusterNodes: 'REDIS_CLUSTER_NODES',
  prefix: 'LISTING_SYNC_PREFIX',
};
const flagEnv = (flag: string): string => FLAG_ENV[flag] ?? flag;

/** A client that sends only `credential` (the others blanked), so that the service judges it alone. */
function probeClient(config: Config, io: CliIo, credential: keyof Config['api']['credentials']): CredentialProbe['client'] {
  const value = config.api.credentials[credential];
  if (value === undefined || config.api.baseUrl === undefined) return undefined;
  const only: Config = { ...config, api: { ...config.api, credentials: { [credential]: value } } };
  const client = createClientFromConfig(only, silentLogger(), credential === 'projectAuthToken' ? 'site' : 'api');
  io.releases.push('API client', () => client.close());
  return client;
}

async function serviceChecks(config: Config, io: CliIo, targets: ConnectTargets): Promise<ReadinessCheck[]> {
  if (config.api.baseUrl === undefined) return [];
  const probes: CredentialProbe[] = [
    {
      env: 'API_SESSION_KEY',
      client: probeClient(config, io, 'sessionKey'),
      usedFor: 'RealEstateList (every sync reads with it) and RealEstateCreate/Update/Delete',
      required: true,
    },
    {
      env: 'API_SECRET_KEY',
      client: probeClient(config, io, 'secretKey'),
      usedFor: 'Chatbot Edit/EditKnowledge and RealEstateCreate/Update/Delete (sent beside the session key: a wrong one fails writes)',
      required: false,
    },
    {
      env: 'PROJECT_AUTH_TOKEN',
      client: probeClient(config, io, 'projectAuthToken'),
      usedFor: 'GetTableList (`tables` only)',
      required: false,
    },
  ];
  const checks: ReadinessCheck[] = [];
  for (const probe of probes) checks.push(await checkCredential(probe, targets.chatbot, targets.randomCode));
  return checks;
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i;

/** The hosts of the Redis target (a URL that does not parse names none). */
function redisHosts(redis: Config['redis']): string[] {
  if (redis.cluster !== undefined) return redis.cluster.nodes.map((node) => node.host);
  try {
    return [new URL(redis.url).hostname];
  } catch {
    return [];
  }
}

/**
 * A warning when Redis takes no password and is not on loopback. Why a warning, not a failure: a
 * private network may be the operator's choice; but whoever reaches that Redis can read every
 * record and enqueue work, so the check says so.
 */
function openRedisCheck(redis: Config['redis']): ReadinessCheck | undefined {
  const password = redis.cluster === undefined ? redisPassword(redis.url) : redis.cluster.password;
  const remote = redisHosts(redis).filter((host) => !LOOPBACK_HOST.test(host));
  if (password !== undefined || remote.length === 0) return undefined;
  return {
    mark: 'warn',
    what: 'Redis password',
    detail: `none, and Redis is not on loopback (${remote.join(', ')}): whoever reaches it can read the records and add jobs`,
    fix: 'set requirepass (or an ACL user limited to the prefix) and put the password in REDIS_URL; see docs/redis-security.md',
  };
}

async function redisChecks(config: Config, io: CliIo): Promise<ReadinessCheck[]> {
  const where = displayRedis(config.redis);
  const exposed = openRedisCheck(config.redis);
  const warnings = exposed === undefined ? [] : [exposed];
  const redis = createProducerConnection(config.redis);
  io.releases.push('Redis connection', () => closeConnection(redis));
  try {
    await connectProducer(redis);
  } catch (thrown) {
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    // The message names where it looked and the setting to check.
    return [{ mark: 'fail', what: 'Redis', detail: message }, ...warnings];
  }
  const reached: ReadinessCheck = { mark: 'ok', what: 'Redis', detail: `${where} answers` };
  return [reached, ...warnings, ...redisSettingChecks(await readRedisSettings(redis))];
}

/**
 * The setting lines with resolveConfig's problems ("  NAME: what is wrong", one per line) marked ✗
 * on their setting. Why parsed: the problems are reported in one block by design; here each one
 * belongs to the line of its setting.
 */
function withProblems(settings: ReadinessCheck[], message: string): ReadinessCheck[] {
  const problems = new Map<string, string>();
  for (const line of message.split('\n')) {
    const match = /^\s+([A-Z][A-Z0-9_]*)(?: \(--[\w-]+\))?: (.+)$/.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined) problems.set(match[1], match[2]);
  }
  if (problems.size === 0) return [...settings, { mark: 'fail', what: 'settings', detail: message, fix: 'correct the settings it names' }];
  const marked = settings.map((check): ReadinessCheck => {
    const problem = problems.get(check.what);
    return problem === undefined ? check : { mark: 'fail', what: check.what, detail: problem, fix: `correct ${check.what}` };
  });
  const unlisted = [...problems].filter(([name]) => !settings.some((check) => check.what === name));
  return [
    ...marked,
    ...unlisted.map(([name, problem]): ReadinessCheck => ({ mark: 'fail', what: name, detail: problem, fix: `correct ${name}` })),
  ];
}

/** Every check; a configuration that does not resolve is its own failed check (nothing is contacted then). */
export async function connectChecks(options: object, io: CliIo, targets: ConnectTargets): Promise<ReadinessCheck[]> {
  const flags = configFlagsFrom(options);
  const settings = settingChecks(flags, io.env);
  let config: Config;
  try {
    config = resolveConfig({ env: io.env, flags });
  } catch (thrown) {
    if (!(thrown instanceof ListingSyncError)) throw thrown;
    return withProblems(settings, thrown.message);
  }
  return [...settings, ...(await serviceChecks(config, io, targets)), ...(await redisChecks(config, io))];
}
