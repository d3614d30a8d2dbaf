/**
 * REDIS_CLUSTER_NODES (and --redis-cluster-nodes): the seed nodes of a Redis Cluster, used
 * instead of REDIS_URL when set. Each entry is `host:port`, or a URL carrying what a single
 * Redis's REDIS_URL carries — `rediss://` for TLS, `user:password@` for AUTH — which then
 * applies to every node (a cluster has one ACL and one TLS setting). Pure, like src/config/config.ts.
 */
import { z } from 'zod';

export interface ClusterNode {
  host: string;
  port: number;
}

/** A Redis Cluster to connect to: seed nodes, and the credentials and TLS every node shares. */
export interface RedisClusterTarget {
  nodes: ClusterNode[];
  username?: string;
  password?: string;
  tls: boolean;
}

const HOST_PORT = /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

interface Entry extends ClusterNode {
  username?: string;
  password?: string;
  tls?: boolean;
}

/** One entry, or a problem naming it (never its password). */
function parseEntry(text: string, position: number): Entry | string {
  const where = `entry ${position}`;
  if (!text.includes('://')) {
    const match = HOST_PORT.exec(text);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65_535) return `${where} ("${text}") must be host:port, e.g. 10.0.0.5:6379`;
    return { host: (match[1] ?? '').replace(/^\[|\]$/g, ''), port };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `${where} must be host:port or a redis:// or rediss:// URL`;
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') return `${where} must be host:port or a redis:// or rediss:// URL`;
  const port = Number(url.port || '6379');
  if (url.hostname === '') return `${where} has no host`;
  const entry: Entry = { host: url.hostname.replace(/^\[|\]$/g, ''), port, tls: url.protocol === 'rediss:' };
  if (url.username !== '') entry.username = safeDecode(url.username);
  if (url.password !== '') entry.password = safeDecode(url.password);
  return entry;
}

/** Parses the comma list; problems are added to `ctx` (zod transform). */
export function parseClusterNodes(text: string, ctx: z.RefinementCtx): RedisClusterTarget {
  const entries = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (entries.length === 0) {
    ctx.addIssue({ code: 'custom', message: 'must list at least one node, e.g. 10.0.0.5:6379,10.0.0.6:6379' });
    return z.NEVER;
  }
  const parsed = entries.map((entry, i) => parseEntry(entry, i + 1));
  const problems = parsed.filter((entry): entry is string => typeof entry === 'string');
  for (const problem of problems) ctx.addIssue({ code: 'custom', message: problem });
  if (problems.length > 0) return z.NEVER;
  const nodes = parsed.filter((entry): entry is Entry => typeof entry !== 'string');
  const agreed = (pick: (entry: Entry) => string | boolean | undefined): Array<string | boolean> => [
    ...new Set(nodes.map(pick).filter((value): value is string | boolean => value !== undefined)),
  ];
  const usernames = agreed((entry) => entry.username);
  const passwords = agreed((entry) => entry.password);
  const tls = agreed((entry) => entry.tls);
  // Why refused: a cluster has one ACL and one TLS setting; two different ones are a typo.
  if (usernames.length > 1 || passwords.length > 1) {
    ctx.addIssue({
      code: 'custom',
      message: 'the entries carry different credentials: give them once (one URL entry) or the same on each',
    });
    return z.NEVER;
  }
  if (tls.length > 1) {
    ctx.addIssue({ code: 'custom', message: 'the entries mix redis:// and rediss://: a cluster uses TLS on every node or on none' });
    return z.NEVER;
  }
  const target: RedisClusterTarget = { nodes: nodes.map(({ host, port }) => ({ host, port })), tls: tls[0] === true };
  if (typeof usernames[0] === 'string') target.username = usernames[0];
  if (typeof passwords[0] === 'string') target.password = passwords[0];
  return target;
}

/** The cluster as shown to people: `cluster 10.0.0.5:6379,10.0.0.6:6379` (never the password). */
export function displayCluster(target: RedisClusterTarget): string {
  const nodes = target.nodes.map(({ host, port }) => `${host.includes(':') ? `[${host}]` : host}:${port}`).join(',');
  return `cluster ${target.tls ? 'rediss ' : ''}${nodes}`;
}
