/**
 * Starting a module of src/ as a worker thread, and how an error crosses the thread boundary:
 * as its code, message and details, rebuilt on the other side with the same class of error, so
 * exit codes and messages are the same as when the work runs in-thread.
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { ListingSyncError, UsageError } from '../shared/errors.js';
import { ErrorCode } from '../shared/error-codes.js';

/**
 * Starts the module `file` (a name next to `besideUrl`, e.g. `import.meta.url` of its caller,
 * written with `.js`) as a worker thread. Three ways the code can be laid out:
 * - the shipped CLI (dist/cli/bundle.cjs): `besideUrl` is that bundle, and the thread runs the
 *   launcher beside it, `file` with `.cjs`, which runs the thread's own bundle with its code cache
 *   (scripts/build-bundle.ts writes both per thread, src/cli/bundle-loader.ts `runThreadBundle`);
 * - compiled modules (dist/src): the `.js` file itself;
 * - the test runner's TypeScript source: the thread runs the source too, registered through tsx
 *   (a dev dependency) by a two-line bootstrap, so tests exercise exactly the code in src/.
 */
export function startModuleThread(besideUrl: string, file: string, workerData: unknown, resourceLimits: ResourceLimits): Worker {
  if (besideUrl.endsWith('.cjs')) return new Worker(new URL(file.replace(/\.js$/, '.cjs'), besideUrl), { workerData, resourceLimits });
  if (!besideUrl.endsWith('.ts')) return new Worker(new URL(file, besideUrl), { workerData, resourceLimits });
  const source = new URL(file.replace(/\.js$/, '.ts'), besideUrl).href;
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(bootstrap, { eval: true, workerData, resourceLimits });
}

export interface SentError {
  code: string;
  name: string;
  message: string;
  details: Record<string, unknown>;
}

export function sendableError(thrown: unknown): SentError {
  if (thrown instanceof ListingSyncError)
    return { code: thrown.code, name: thrown.name, message: thrown.message, details: { ...thrown.details } };
  const error = thrown instanceof Error ? thrown : new Error(String(thrown));
  const code = (error as { code?: unknown }).code;
  return { code: typeof code === 'string' ? code : ErrorCode.UNKNOWN, name: error.name, message: error.message, details: {} };
}

export function receivedError(sent: SentError): ListingSyncError {
  return sent.name === 'UsageError'
    ? new UsageError(sent.message, sent.details)
    : // Why a cast: the code is whatever the thread threw, ours or a Node one (ENOENT); it is carried, not chosen here.
      new ListingSyncError(sent.code as ErrorCode, sent.message, { details: sent.details });
}
