/**
 * BullMQ job ids and run ids. BullMQ rejects custom ids that contain ':' or are all digits, and
 * silently ignores an add whose id already exists; so ids are deterministic per run and key
 * (re-enqueueing the same plan twice adds nothing), encoded, readable and bounded in length.
 */
import { createHash } from 'node:crypto';

/** Longest job id produced; longer ones have their key (then everything) replaced by a sha1. */
export const MAX_JOB_ID_LENGTH = 200;

const SAFE = /^[A-Za-z0-9-]$/;
/** A part that needs no escape at all: most keys, chatbots and run ids (each job's id encodes five parts). */
const ALL_SAFE = /^[A-Za-z0-9-]*$/;

/**
 * Escapes a part so it holds only [A-Za-z0-9_-]: '_' starts an escape ('_xx' for an ASCII
 * character, '_uxxxx' for any other UTF-16 unit). '.' and '_' are escaped too, so parts joined
 * with '.' can be split back and distinct inputs never share an id.
 */
export function encodeIdPart(part: string): string {
  if (ALL_SAFE.test(part)) return part;
  let out = '';
  for (let i = 0; i < part.length; i++) {
    const char = part.charAt(i);
    if (SAFE.test(char)) {
      out += char;
      continue;
    }
    const code = part.charCodeAt(i);
    out += code < 0x80 ? `_${code.toString(16).padStart(2, '0')}` : `_u${code.toString(16).padStart(4, '0')}`;
  }
  return out;
}

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

/**
 * A listing job's id: kind.chatbot.keyType.key.runId, each part encoded (see encodeIdPart), e.g.
 * `create.bot-demo.MLSNumber.11646057.run-00mhx3k2q0-9f2c`. Never contains ':', never all digits
 * (it always holds '.'), at most MAX_JOB_ID_LENGTH characters: a long key becomes `_sha1-<hex>`
 * ('_s' is no escape, so it cannot collide with an encoded key).
 */
export function jobId(parts: { chatbot: string; kind: string; keyType: string; key: string; runId: string }): string {
  const head = [parts.kind, parts.chatbot, parts.keyType].map(encodeIdPart).join('.');
  const run = encodeIdPart(parts.runId);
  const full = `${head}.${encodeIdPart(parts.key)}.${run}`;
  if (full.length <= MAX_JOB_ID_LENGTH) return full;
  const hashedKey = `${head}._sha1-${sha1(parts.key)}.${run}`;
  if (hashedKey.length <= MAX_JOB_ID_LENGTH) return hashedKey;
  return `${encodeIdPart(parts.kind).slice(0, 40)}._sha1-${sha1(full)}`;
}

const HEX = /^[0-9a-f]+$/;
/** Base36 digits of the time: 10 cover every ms up to the year 115,000, so ids sort by time. */
const TIME_DIGITS = 10;
const MAX_RUN_TIME = 36 ** TIME_DIGITS - 1;

/**
 * A run id that sorts lexicographically by start time: `run-<base36 ms, zero-padded>-<hex>`.
 * Time and randomness are passed in (domain is pure).
 */
export function newRunId(nowMs: number, randomHex: string): string {
  if (!Number.isSafeInteger(nowMs) || nowMs < 0 || nowMs > MAX_RUN_TIME) {
    throw new RangeError(`newRunId: nowMs must be an integer from 0 to ${MAX_RUN_TIME}, got ${nowMs}`);
  }
  const random = randomHex.toLowerCase();
  if (!HEX.test(random)) throw new RangeError(`newRunId: randomHex must be hex digits, got "${randomHex}"`);
  return `run-${nowMs.toString(36).padStart(TIME_DIGITS, '0')}-${random}`;
}

/** A listing job id's run part: `…. run-<10 base36 digits>-<hex>` at its end (see jobId and newRunId). */
const RUN_AT_END = /\.(run-[0-9a-z]{10}-[0-9a-f]+)$/;

/**
 * The run a job id names, when it names one (listing jobs, unless their id was hashed whole);
 * undefined for other ids.
 */
export function runIdOfJobId(jobId: string): string | undefined {
  return RUN_AT_END.exec(jobId)?.[1];
}

/** Orders run ids by start time (then by their random part): a plain code-unit comparison. */
export function compareRunIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
