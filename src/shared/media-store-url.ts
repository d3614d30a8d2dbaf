/**
 * The `--media-store` URL forms: `file:///ABS/DIR` or `s3://BUCKET[/PREFIX]`. Checked when the
 * configuration is read (config-settings.ts) and again when the store is opened (feed/media).
 */
import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MEDIA_STORE_FORMS = 'file:///ABSOLUTE/DIR or s3://BUCKET[/PREFIX]';

/** What is wrong with a store URL, or undefined when it names a store. */
export function mediaStoreProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `must be ${MEDIA_STORE_FORMS}`;
  }
  if (url.protocol === 'file:') {
    if (url.host !== '' && url.host !== 'localhost') return `a file store names a directory of this machine: ${MEDIA_STORE_FORMS}`;
    return isAbsolute(fileURLToPath(url)) ? undefined : `must be ${MEDIA_STORE_FORMS}`;
  }
  if (url.protocol === 's3:') return url.hostname === '' ? `names no bucket: ${MEDIA_STORE_FORMS}` : undefined;
  return `must be ${MEDIA_STORE_FORMS} (got a ${url.protocol.replace(':', '')} URL)`;
}
