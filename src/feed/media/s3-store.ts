/**
 * The S3 store (`s3://BUCKET[/PREFIX]`): any S3-compatible server (AWS S3, MinIO, R2, …) through
 * the AWS SDK v3. Credentials and region come from the SDK's standard chain; an endpoint other than
 * AWS's (AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL, resolved by the configuration) is addressed by
 * path, as most S3-compatible servers need.
 *
 * Why checksums only when required: with the SDK's default (WHEN_SUPPORTED) a streamed PutObject
 * is sent aws-chunked with a trailing checksum, and S3-compatible servers that do not speak that
 * framing store it inside the object (200,045 bytes for a 200,000-byte photo; aws/aws-sdk-js-v3#6819).
 * A PutObject with a known ContentLength and no checksum is plain HTTP every server stores as sent.
 *
 * Why the SDK is loaded at the store's first call: it is the largest dependency of the CLI, and
 * every command that opens a store for its configuration (most of them, even with nothing to
 * host) would otherwise compile and initialise it at start.
 */
import { createReadStream, mkdirSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import type { MediaStore, StoredObject } from './media-store.js';
import { isObjectKey } from './object-key.js';

export interface S3StoreOptions {
  bucket: string;
  /** Key prefix inside the bucket, without slashes at its ends ('' for none). */
  prefix: string;
  /** The store URL as given, for messages. */
  url: string;
  /** A custom endpoint (MinIO, R2, s3rver …); AWS's own when absent. */
  endpoint?: string;
  /** The region when the configuration names one; otherwise the SDK's chain (us-east-1 with a custom endpoint). */
  region?: string;
}

function isNotFound(thrown: unknown): boolean {
  const fields = thrown as { name?: unknown; $metadata?: { httpStatusCode?: unknown } };
  return fields.name === 'NotFound' || fields.name === 'NoSuchKey' || fields.$metadata?.httpStatusCode === 404;
}

export function s3MediaStore(options: S3StoreOptions): MediaStore {
  const config: S3ClientConfig = {
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint, forcePathStyle: true }),
    ...(options.region !== undefined ? { region: options.region } : options.endpoint !== undefined ? { region: 'us-east-1' } : {}),
  };
  let opened: Promise<{ sdk: typeof S3Sdk; client: S3Client }> | undefined;
  const open = (): Promise<{ sdk: typeof S3Sdk; client: S3Client }> =>
    (opened ??= import('@aws-sdk/client-s3').then((sdk) => ({ sdk, client: new sdk.S3Client(config) })));
  const { bucket } = options;
  const head = options.prefix === '' ? '' : `${options.prefix}/`;
  const stagingDir = join(tmpdir(), 'listing-sync-media');
  mkdirSync(stagingDir, { recursive: true });
  return {
    url: options.url,
    stagingDir,
    async put(key, path, object) {
      try {
        const { sdk, client } = await open();
        await client.send(
          new sdk.PutObjectCommand({
            Bucket: bucket,
            Key: `${head}${key}`,
            Body: createReadStream(path),
            ContentLength: object.bytes,
            ContentType: object.contentType,
            // Why immutable: the key is the content's hash, so the object under it never changes.
            CacheControl: 'public, max-age=31536000, immutable',
          }),
        );
      } finally {
        await unlink(path).catch(() => undefined);
      }
    },
    async has(key) {
      const { sdk, client } = await open();
      try {
        await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: `${head}${key}` }));
        return true;
      } catch (thrown) {
        if (isNotFound(thrown)) return false;
        throw thrown;
      }
    },
    async *list(): AsyncIterable<StoredObject> {
      const { sdk, client } = await open();
      let token: string | undefined;
      do {
        const page = await client.send(
          new sdk.ListObjectsV2Command({ Bucket: bucket, Prefix: head, ...(token === undefined ? {} : { ContinuationToken: token }) }),
        );
        for (const item of page.Contents ?? []) {
          const key = item.Key?.slice(head.length) ?? '';
          if (isObjectKey(key)) yield { key, modifiedMs: item.LastModified?.getTime() ?? 0, bytes: item.Size ?? 0 };
        }
        token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
      } while (token !== undefined);
    },
    async remove(key) {
      const { sdk, client } = await open();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: `${head}${key}` }));
    },
    async close() {
      await opened?.then(
        ({ client }) => client.destroy(),
        () => undefined,
      );
    },
  };
}
