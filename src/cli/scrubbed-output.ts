/**
 * The CLI's stdout and stderr through the one scrubber (src/shared/secret-scrub.ts): whatever a
 * command prints — a table, a failure quoted from Redis, a library's message — leaves the process
 * without the secrets in its environment. Patched on the process streams (not wrapped) so that
 * everything that writes to them, the worker threads' forwarded output included, goes through it.
 */
import type { Scrubber } from '../shared/secret-scrub.js';

type Chunk = string | Uint8Array;

/** Makes `stream.write` scrub each chunk before it is written. */
export function scrubWrites(stream: NodeJS.WritableStream, scrubber: Scrubber): void {
  // Why no shortcut when the scrubber knows nothing yet: a secret registered later (a webhook URL) must be scrubbed too.
  const write = stream.write.bind(stream) as (chunk: Chunk, ...rest: unknown[]) => boolean;
  const scrubbing = (chunk: Chunk, ...rest: unknown[]): boolean => {
    const clean = typeof chunk === 'string' ? scrubber.text(chunk) : Buffer.from(scrubber.text(Buffer.from(chunk).toString('utf8')));
    return write(clean, ...rest);
  };
  stream.write = scrubbing;
}
