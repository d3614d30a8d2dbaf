/**
 * The feed server's credentials (RESO Web API replication): the OAuth2
 * client-credentials set FEED_OAUTH_TOKEN_URL / _CLIENT_ID / _CLIENT_SECRET (optional _SCOPE),
 * or a static FEED_TOKEN. Pure, like src/config/config.ts, which merges these settings with the rest.
 */
import type { z } from 'zod';

/** How a sync authenticates to the feed server; absent members mean "not configured". */
export interface FeedAuth {
  oauth?: { tokenUrl: string; clientId: string; clientSecret: string; scope?: string };
  token?: string;
}

/** The settings whose values are secrets (messages never echo them). */
export const FEED_SECRET_SETTINGS = ['FEED_OAUTH_CLIENT_SECRET', 'FEED_TOKEN'] as const;

const REQUIRED_OAUTH = ['FEED_OAUTH_TOKEN_URL', 'FEED_OAUTH_CLIENT_ID', 'FEED_OAUTH_CLIENT_SECRET'] as const;

/** The feed-auth members of the settings schema; `httpUrl` and `credential` are src/config/config.ts's own refinements. */
export function feedAuthSettings(httpUrl: z.ZodType<string, string>, credential: z.ZodType<string, string>) {
  return {
    FEED_OAUTH_TOKEN_URL: httpUrl.optional(),
    FEED_OAUTH_CLIENT_ID: credential.optional(),
    FEED_OAUTH_CLIENT_SECRET: credential.optional(),
    FEED_OAUTH_SCOPE: credential.optional(),
    FEED_TOKEN: credential.optional(),
  };
}

type FeedAuthValues = Partial<Record<(typeof REQUIRED_OAUTH)[number] | 'FEED_OAUTH_SCOPE' | 'FEED_TOKEN', string>>;

/**
 * Problems of the set as a whole, one line each. Why a half-configured set is refused rather
 * than ignored: a sync that silently pulls without credentials fails later with a 401 that
 * names nothing; a missing name now says exactly what to set.
 */
export function feedAuthProblems(values: FeedAuthValues): string[] {
  const given = [...REQUIRED_OAUTH, 'FEED_OAUTH_SCOPE' as const].filter((name) => values[name] !== undefined);
  const missing = REQUIRED_OAUTH.filter((name) => values[name] === undefined);
  const problems: string[] = [];
  if (given.length > 0 && missing.length > 0)
    problems.push(`  FEED_OAUTH_*: the client-credentials grant needs ${REQUIRED_OAUTH.join(', ')}; missing: ${missing.join(', ')}`);
  if (given.length > 0 && values.FEED_TOKEN !== undefined)
    problems.push('  FEED_TOKEN: set either FEED_TOKEN (a static bearer token) or the FEED_OAUTH_* set, not both');
  return problems;
}

/** The resolved feed auth (call after feedAuthProblems found nothing). */
export function toFeedAuth(values: FeedAuthValues): FeedAuth {
  const { FEED_OAUTH_TOKEN_URL: tokenUrl, FEED_OAUTH_CLIENT_ID: clientId, FEED_OAUTH_CLIENT_SECRET: clientSecret } = values;
  const scope = values.FEED_OAUTH_SCOPE;
  return {
    ...(tokenUrl !== undefined && clientId !== undefined && clientSecret !== undefined
      ? { oauth: { tokenUrl, clientId, clientSecret, ...(scope === undefined ? {} : { scope }) } }
      : {}),
    ...(values.FEED_TOKEN === undefined ? {} : { token: values.FEED_TOKEN }),
  };
}

/** The secret values of a feed auth, for secretValues(config). */
export function feedAuthSecrets(auth: FeedAuth): Array<string | undefined> {
  return [auth.oauth?.clientSecret, auth.token];
}
