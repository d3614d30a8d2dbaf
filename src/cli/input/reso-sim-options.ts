/**
 * `sim --reso` flags and env → RESO simulator options. Pure; throws UsageError naming the bad
 * flag. Credentials come from FEED_OAUTH_CLIENT_ID / FEED_OAUTH_CLIENT_SECRET when set, so
 * `sync --replicate` pointed at the simulator works with the same env.
 */
import { parseFeedBudget } from '../../feed/reso-api/budget-spec.js';
import { integerFlag } from './integer-flag.js';
import type { ResoCredentials, ResoSimOptions } from '../../sim/reso/server.js';

export interface ResoSimFlags {
  resoRecords?: string;
  resoMaxTop?: string;
  resoNoNextLink?: boolean;
  resoBudget?: string;
}

/** The credentials given by env; an empty value counts as unset (the design's rule). */
export function resoCredentialsFromEnv(env: Readonly<Record<string, string | undefined>>): Partial<ResoCredentials> {
  const pairs: Array<[keyof ResoCredentials, string | undefined]> = [
    ['clientId', env.FEED_OAUTH_CLIENT_ID],
    ['clientSecret', env.FEED_OAUTH_CLIENT_SECRET],
  ];
  return Object.fromEntries(pairs.filter(([, value]) => value !== undefined && value !== ''));
}

/** Flags (`--reso-*`; `--reso-no-next-link` is `resoNoNextLink: true`) → options. */
export function resoSimOptionsFrom(flags: ResoSimFlags, env: Readonly<Record<string, string | undefined>>, host: string): ResoSimOptions {
  const maxTop = integerFlag('reso-max-top', flags.resoMaxTop, 1, 100_000);
  return {
    port: 0,
    host,
    credentials: resoCredentialsFromEnv(env),
    records: integerFlag('reso-records', flags.resoRecords, 0, 1_000_000) ?? 0,
    ...(maxTop === undefined ? {} : { maxTop }),
    ...(flags.resoNoNextLink === true ? { nextLink: false } : {}),
    ...(flags.resoBudget === undefined ? {} : { budget: parseFeedBudget(flags.resoBudget) }),
  };
}
