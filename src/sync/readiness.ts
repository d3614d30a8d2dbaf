/**
 * `doctor --connect`'s checks of what a run needs: each credential with a call of its own (so a
 * rejected key is named), and the Redis settings that keep queued work safe. Each check is one
 * value: a mark, what was checked, what was found and, when it failed, the fix.
 */
import type { ApiClient } from '../api/client-contract.js';
import { errorFields } from '../shared/errors.js';
import type { RedisServerState } from '../store/redis-settings.js';
import { count, plural } from '../shared/counts.js';

/**
 * ok ✓, fail ✗, skip – (not checked: nothing to check it with, or the server would not say), warn !
 * (fine on a development machine, to fix for production: it does not make the installation "not ready").
 */
export type CheckMark = 'ok' | 'fail' | 'skip' | 'warn';

export interface ReadinessCheck {
  mark: CheckMark;
  what: string;
  detail: string;
  /** What to do about a failed check. */
  fix?: string;
}

/** A key that no listing holds: the delete probe sends it so that it deletes nothing. */
export const PROBE_KEY = 'listing-sync-doctor-probe-no-such-listing';

export interface CredentialProbe {
  /** The env name of the credential. */
  env: string;
  /** A client that sends this credential and no other; undefined when the credential is not set. */
  client: ApiClient | undefined;
  /** Which endpoints use the credential, said on its line whatever the result. */
  usedFor: string;
  /** Whether every run needs it (not set is then a failure). */
  required: boolean;
}

function failure(env: string, thrown: unknown): ReadinessCheck {
  const { code } = errorFields(thrown);
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  if (code === 'AUTH_FAILED') {
    return { mark: 'fail', what: env, detail: 'rejected by the service', fix: `set ${env} to the key the service issued for this account` };
  }
  // A connection failure's message already names the address and the setting to check.
  const fix = /: check /.test(message) ? undefined : 'check API_BASE_URL (or SITE_URL) and that the service is up';
  return { mark: 'fail', what: env, detail: `not checked: ${message}`, ...(fix === undefined ? {} : { fix }) };
}

/** Whether an answer says the key passed and only the chatbot or project is unknown to the service. */
function unknownTarget(thrown: unknown): boolean {
  const { code, details } = errorFields(thrown);
  return code === 'CHATBOT_NOT_FOUND' || details.envelopeCode === 404;
}

/**
 * One call per credential: the session key lists one listing of `chatbot` (endpoint 5); the secret
 * key deletes PROBE_KEY from `chatbot` (endpoint 6, the one call it may make that changes nothing:
 * no endpoint reads with it); the project token lists the tables of `randomCode` (endpoint 7).
 * Why an unknown chatbot or project counts as accepted: the key was checked before the answer.
 */
export async function checkCredential(probe: CredentialProbe, chatbot: string, randomCode: string): Promise<ReadinessCheck> {
  const { env, client } = probe;
  if (client === undefined) {
    return probe.required
      ? { mark: 'fail', what: env, detail: `not set: used by ${probe.usedFor}`, fix: `set ${env}` }
      : { mark: 'skip', what: env, detail: `not set: used by ${probe.usedFor}` };
  }
  try {
    const detail = await call(env, client, chatbot, randomCode);
    return { mark: 'ok', what: env, detail: `accepted: ${detail}; used by ${probe.usedFor}` };
  } catch (thrown) {
    if (unknownTarget(thrown))
      return {
        mark: 'ok',
        what: env,
        detail: `accepted (the service does not know '${env === 'PROJECT_AUTH_TOKEN' ? randomCode : chatbot}'); used by ${probe.usedFor}`,
      };
    return failure(env, thrown);
  }
}

async function call(env: string, client: ApiClient, chatbot: string, randomCode: string): Promise<string> {
  if (env === 'API_SESSION_KEY') {
    const page = await client.listListings({ SerialNumber: chatbot, PageNumber: 1, PageSize: 1 });
    return `RealEstateList of ${chatbot}: ${plural(page.VirtualCount, 'listing')}`;
  }
  if (env === 'PROJECT_AUTH_TOKEN') {
    const tables = await client.listTables(randomCode);
    return `GetTableList of ${randomCode}: ${plural(tables.length, 'table')}`;
  }
  const deleted = await client.deleteListings({ SerialNumber: chatbot, Keys: [PROBE_KEY], KeyType: 'MLSNumber' });
  return `RealEstateDelete of a key no listing has, in ${chatbot}: ${count(deleted)} deleted`;
}

/** Persistence and eviction, read from the server (`readRedisSettings`), one check each. */
export function redisSettingChecks(state: RedisServerState): ReadinessCheck[] {
  const { appendonly, appendfsync, maxmemoryPolicy } = state.settings;
  const checks: ReadinessCheck[] = [];
  if (appendonly.value === null) {
    checks.push({ mark: 'skip', what: 'Redis persistence', detail: `unknown: ${appendonly.reason ?? 'not reported'}` });
  } else if (appendonly.value !== 'yes') {
    // Why a warning: it is Redis's default and fine on a development machine; in production it loses work.
    checks.push({
      mark: 'warn',
      what: 'Redis persistence',
      detail: 'appendonly is no: fine for development; in production a restart loses queued jobs, runs and ledger entries since a snapshot',
      fix: 'set appendonly yes and appendfsync everysec (redis.conf, or CONFIG SET then CONFIG REWRITE)',
    });
  } else if (appendfsync.value !== null && appendfsync.value !== 'everysec' && appendfsync.value !== 'always') {
    checks.push({
      mark: 'fail',
      what: 'Redis persistence',
      detail: `appendonly yes, appendfsync ${appendfsync.value}: a crash may lose more than the last second`,
      fix: 'set appendfsync everysec',
    });
  } else {
    checks.push({ mark: 'ok', what: 'Redis persistence', detail: `appendonly yes, appendfsync ${appendfsync.value ?? 'unknown'}` });
  }
  if (maxmemoryPolicy.value === null) {
    checks.push({ mark: 'skip', what: 'Redis eviction', detail: `unknown: ${maxmemoryPolicy.reason ?? 'not reported'}` });
  } else if (maxmemoryPolicy.value !== 'noeviction') {
    checks.push({
      mark: 'fail',
      what: 'Redis eviction',
      detail: `maxmemory-policy is ${maxmemoryPolicy.value}: Redis may drop queued jobs without an error (BullMQ needs noeviction)`,
      fix: 'set maxmemory-policy noeviction',
    });
  } else {
    checks.push({ mark: 'ok', what: 'Redis eviction', detail: 'maxmemory-policy noeviction' });
  }
  return checks;
}
