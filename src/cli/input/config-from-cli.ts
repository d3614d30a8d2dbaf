/**
 * Maps a command's commander options and the process env (through CliIo) to resolveConfig.
 * Commander hands every option of a command to its action; only the config flags matter here.
 */
import { CONFIG_FLAG_NAMES, resolveConfig, type Config, type ConfigFlags } from '../../config/config.js';
import type { CliIo } from '../io.js';

/** The ConfigFlags present (as strings) in a commander options object; other options are ignored. */
export function configFlagsFrom(options: object): ConfigFlags {
  const record = options as Readonly<Record<string, unknown>>;
  const flags: ConfigFlags = {};
  for (const name of CONFIG_FLAG_NAMES) {
    const value = record[name];
    if (typeof value === 'string') flags[name] = value;
    else if (typeof value === 'number') flags[name] = String(value);
  }
  return flags;
}

/** Resolves the configuration of one command run. Throws CONFIG (exit 2) listing every problem. */
export function configFromCli(options: object, io: Pick<CliIo, 'env'>, file?: unknown): Config {
  return resolveConfig({ env: io.env, flags: configFlagsFrom(options), file });
}
