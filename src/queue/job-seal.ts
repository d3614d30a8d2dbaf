/**
 * Job authenticity and target (docs/security-jobs.md). Every job listing-sync enqueues carries a
 * `seal` member in its data: the service it was planned for (`target`) and an HMAC-SHA256 over
 * (queue, job name, job id, the data with its target) under a key that never lives in Redis.
 * Why: anything that reaches Redis (bull-board's add, a plain `Queue.add`, an HSET of a job's
 * data) could otherwise make a worker delete listings or read any file; and a worker configured
 * for another service would write the jobs of this one there.
 *
 * The encoding signed is JSON of [queue, name, id, payload, target]: the payload as BullMQ stores
 * it (JSON.stringify of the object) and as the worker reads it back (JSON.parse keeps the order
 * of members), so the worker signs exactly what it was given. One HMAC per job, no Redis command.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The service a job was planned for: its base URL and a fingerprint of the credentials (never a credential). */
export interface JobTarget {
  url: string;
  /** The first 12 hex of an HMAC keyed with the service secret (see jobSealOf). */
  credentials: string;
}

/** What a process signs and checks jobs with; plain data, so it crosses to the enqueue thread. */
export interface JobSeal {
  /** The signing key (LISTING_SYNC_JOB_KEY, or derived from API_SECRET_KEY). */
  key: string;
  target: JobTarget;
}

/** Why a process has no seal: the setting to set (jobSealOf). */
export interface NoSeal {
  missing: string;
}

/** The member of a job's data that carries its seal. */
export const SEAL_MEMBER = 'seal';

/** The seal member as stored. */
export interface StoredSeal {
  target: JobTarget;
  signature: string;
}

/** What jobSealOf needs of the configuration: the service, its credentials, LISTING_SYNC_JOB_KEY. */
export interface SealSource {
  baseUrl?: string | undefined;
  secretKey?: string | undefined;
  sessionKey?: string | undefined;
  projectAuthToken?: string | undefined;
  jobKey?: string | undefined;
}

/** The message the job key is derived from API_SECRET_KEY with (when LISTING_SYNC_JOB_KEY is unset). */
const DERIVATION = 'listing-sync job signature v1';
/** The message the credentials fingerprint is an HMAC of (after the session key and project token). */
const FINGERPRINT = 'listing-sync target v1';

const hmacHex = (key: string, message: string): string => createHmac('sha256', key).update(message).digest('hex');

/** The service's base URL as jobs record it: without user info, query or a trailing slash. */
export function targetUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return baseUrl.replace(/\/+$/, '');
  }
}

/** The job key: LISTING_SYNC_JOB_KEY, or derived from API_SECRET_KEY; undefined when neither is set. */
export function jobKeyOf(source: Pick<SealSource, 'secretKey' | 'jobKey'>): string | undefined {
  const { secretKey, jobKey } = source;
  if (jobKey !== undefined && jobKey !== '') return jobKey;
  return secretKey !== undefined && secretKey !== '' ? hmacHex(secretKey, DERIVATION) : undefined;
}

/**
 * The seal of a process configured with `source`, or why it has none (no key: neither
 * LISTING_SYNC_JOB_KEY nor API_SECRET_KEY is set; no target: API_BASE_URL is unset).
 */
export function jobSealOf(source: SealSource): JobSeal | NoSeal {
  const { secretKey, baseUrl } = source;
  const key = jobKeyOf(source);
  if (key === undefined) {
    return { missing: 'jobs are signed with LISTING_SYNC_JOB_KEY, or a key derived from API_SECRET_KEY: set one of them' };
  }
  if (baseUrl === undefined || baseUrl === '') return { missing: 'jobs record the service they are for: set API_BASE_URL' };
  // Why all three credentials: two installations with one secret key but another session key or
  // project token act as other accounts; the fingerprint is keyed with the secret, so it reveals none.
  const fingerprint = hmacHex(secretKey ?? '', [source.sessionKey ?? '', source.projectAuthToken ?? '', FINGERPRINT].join('\0'));
  return { key, target: { url: targetUrl(baseUrl), credentials: fingerprint.slice(0, 12) } };
}

/** The id a job made by the scheduler `schedulerId` is signed under (BullMQ names each occurrence itself). */
export function schedulerJobId(schedulerId: string): string {
  return `scheduler:${schedulerId}`;
}

function signatureOf(key: string, queue: string, name: string, id: string, payload: unknown, target: JobTarget): string {
  return hmacHex(key, JSON.stringify([queue, name, id, payload, target]));
}

/** `payload` with its seal: the data to enqueue as job `id` named `name` on `queue` (its display name). */
export function sealData(seal: JobSeal, queue: string, name: string, id: string, payload: object): Record<string, unknown> {
  const { [SEAL_MEMBER]: _old, ...plain } = payload as Record<string, unknown>;
  const stored: StoredSeal = { target: seal.target, signature: signatureOf(seal.key, queue, name, id, plain, seal.target) };
  return { ...plain, [SEAL_MEMBER]: stored };
}

/** A job's data split into its payload and its seal (undefined when it carries none, or one of another shape). */
export function unsealData(data: unknown): { payload: unknown; seal: StoredSeal | undefined } {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { payload: data, seal: undefined };
  const { [SEAL_MEMBER]: raw, ...payload } = data as Record<string, unknown>;
  return { payload, seal: isStoredSeal(raw) ? raw : undefined };
}

function isStoredSeal(value: unknown): value is StoredSeal {
  if (typeof value !== 'object' || value === null) return false;
  const { target, signature } = value as { target?: unknown; signature?: unknown };
  if (typeof signature !== 'string' || typeof target !== 'object' || target === null) return false;
  const { url, credentials } = target as { url?: unknown; credentials?: unknown };
  return typeof url === 'string' && typeof credentials === 'string';
}

/** Whether `seal` was made by a holder of `key` for exactly this job and payload. */
export function sealHolds(key: string, queue: string, name: string, id: string, payload: unknown, seal: StoredSeal): boolean {
  const expected = Buffer.from(signatureOf(key, queue, name, id, payload, seal.target), 'hex');
  const given = Buffer.from(seal.signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Whether two targets are the same service with the same credentials. */
export function sameTarget(a: JobTarget, b: JobTarget): boolean {
  return a.url === b.url && a.credentials === b.credentials;
}

/** A target for people: the URL and the credentials' fingerprint. */
export function describeTarget(target: JobTarget): string {
  return `${target.url} (credentials ${target.credentials})`;
}
