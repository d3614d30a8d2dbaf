/**
 * What `listing-sync sim` prints under its URL: paste-ready `export` lines that give the CLI the
 * settings the simulator accepts. Both sides must hold the same API_* values: the simulator takes
 * its keys from these env names when they are set, else its own test defaults.
 */
import { DEFAULT_SIM_CREDENTIALS } from '../../sim/defaults.js';
import { DEFAULT_RESO_CREDENTIALS } from '../../sim/reso/config.js';
import type { ResoCredentials } from '../../sim/reso/types.js';
import type { SimCredentials } from '../../sim/types.js';

/** The env name of each credential the simulator checks (the CLI reads the same names, config.ts). */
export const SIM_CREDENTIAL_ENV: Readonly<Record<keyof SimCredentials, string>> = {
  secretKey: 'API_SECRET_KEY',
  sessionKey: 'API_SESSION_KEY',
  projectAuthToken: 'PROJECT_AUTH_TOKEN',
};

/** The env name of each credential the RESO simulator checks (the feed auth reads the same names, feed-auth-config.ts). */
export const RESO_CREDENTIAL_ENV: Readonly<Record<keyof ResoCredentials, string>> = {
  clientId: 'FEED_OAUTH_CLIENT_ID',
  clientSecret: 'FEED_OAUTH_CLIENT_SECRET',
};

/**
 * The shell variable that carries the RESO simulator's Property URL. Why not a FEED_* name: the
 * CLI reads no feed URL from its env (it is `--feed`), so the line says how to pass it.
 */
export const RESO_FEED_VARIABLE = 'RESO_FEED_URL';

/** A value as one shell word: single quotes, with any single quote closed, escaped and reopened. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The lines to paste into the shell that runs the CLI. A key the simulator took from its env is not
 * printed (it may be a real secret): the line says to set the same value; a default is a public
 * test value from src/sim/defaults.ts and is printed.
 */
export function simExportLines(baseUrl: string, fromEnv: Partial<SimCredentials>): string[] {
  const lines = ['# Give the CLI the settings this simulator accepts (paste into the shell that runs listing-sync):'];
  lines.push(`export API_BASE_URL=${shellWord(baseUrl)}`);
  const given: string[] = [];
  for (const [name, env] of Object.entries(SIM_CREDENTIAL_ENV) as Array<[keyof SimCredentials, string]>) {
    if (fromEnv[name] !== undefined) given.push(env);
    else lines.push(`export ${env}=${shellWord(DEFAULT_SIM_CREDENTIALS[name])}`);
  }
  lines.push(...notPrinted(given));
  return lines;
}

function notPrinted(given: readonly string[]): string[] {
  return given.length === 0 ? [] : [`# ${given.join(', ')}: set the same values as this shell gave the simulator (not printed)`];
}

/**
 * The lines that let another shell pull from the RESO simulator with `sync --replicate`: its
 * Property URL (for `--feed`) and the FEED_OAUTH_* set the feed auth reads. The same rule as the
 * service's keys: a credential taken from the env is not printed, a default is.
 */
export function resoExportLines(propertyUrl: string, tokenUrl: string, fromEnv: Partial<ResoCredentials>): string[] {
  const lines = [
    '# Pull from this RESO simulator: paste these too, then run',
    `#   listing-sync sync --replicate --feed "$${RESO_FEED_VARIABLE}" --profile reso --chatbot <serial>`,
    `export ${RESO_FEED_VARIABLE}=${shellWord(propertyUrl)}`,
    `export FEED_OAUTH_TOKEN_URL=${shellWord(tokenUrl)}`,
  ];
  const given: string[] = [];
  for (const [name, env] of Object.entries(RESO_CREDENTIAL_ENV) as Array<[keyof ResoCredentials, string]>) {
    if (fromEnv[name] !== undefined) given.push(env);
    else lines.push(`export ${env}=${shellWord(DEFAULT_RESO_CREDENTIALS[name])}`);
  }
  lines.push(...notPrinted(given));
  return lines;
}
