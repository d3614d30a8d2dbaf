/** A real S3 server on loopback for tests and bench:media (s3rver, one bucket); `stored` reads the bytes it wrote to disk. */
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: Server;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

export interface RunningS3 {
  endpoint: string;
  bucket: string;
  /** The env a process needs to reach it (s3rver takes the access key S3RVER). */
  env: Record<string, string>;
  /** Under the full key, prefix included. */
  stored(key: string): Buffer | undefined;
  close(): Promise<void>;
}

export async function startS3(bucket = 'photos'): Promise<RunningS3> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
  const directory = mkdtempSync(join(tmpdir(), 'ls-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    env: { AWS_ENDPOINT_URL_S3: endpoint, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' },
    stored: (key) => {
      try {
        return readFileSync(join(directory, bucket, `${key}._S3rver_object`));
      } catch {
        return undefined;
      }
    },
    close: async () => {
      server.httpServer?.closeAllConnections();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
