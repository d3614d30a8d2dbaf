/** `--media-store URL` → a media store: `file:///ABS/DIR`, or `s3://BUCKET[/PREFIX]` through the S3 opener given. */
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../shared/errors.js';
import { MEDIA_STORE_FORMS, mediaStoreProblem } from '../../shared/media-store-url.js';
import { fileMediaStore } from './file-store.js';
import type { MediaStore } from './media-store.js';

/** The S3 side (s3-store.ts), given by the composition root. */
export type S3StoreOpener = (bucket: string, prefix: string, url: string) => MediaStore;

/** Opens the store a URL names; a UsageError naming --media-store when it names none. */
export function openMediaStore(text: string, openS3?: S3StoreOpener): MediaStore {
  const problem = mediaStoreProblem(text);
  if (problem !== undefined) throw new UsageError(`--media-store '${text}': ${problem}`);
  const url = new URL(text);
  if (url.protocol === 'file:') return fileMediaStore(text, fileURLToPath(url));
  if (openS3 === undefined) throw new UsageError(`--media-store '${text}': S3 stores are not available here; use ${MEDIA_STORE_FORMS}`);
  return openS3(url.hostname, url.pathname.replace(/^\/+|\/+$/g, ''), text);
}
