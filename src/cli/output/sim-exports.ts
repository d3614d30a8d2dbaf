/**
 * What `listing-sync sim` prints under its URL: paste-ready `export` lines that give the CLI the
 * settings the simulator accepts. Both sides must hold the same API_* values: the simulator takes
 * its keys from these env names when they are set, else its own test defaults.
 */
import { DEFAULT_SIM_CREDENTIALS } from '../../sim/defaults.js';
import type { SimCredentials } from '../../sim/types.js';

/** The env name of each credential the simulator checks (the CLI reads the same names, config.ts). */
export const SIM_CREDENTIAL_ENV: Readonly<Record<keyof SimCredentials, string>> = {
  secretKey: 'API_SECRET_KEY',
  sessionKey: 'API_SESSION_KEY',
  projectAuthToken: 'PROJECT_AUTH_TOKEN',
};

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
  if (given.length > 0) lines.push(`# ${given.join(', ')}: set the same values as this shell gave the simulator (not printed)`);
  return lines;
}
