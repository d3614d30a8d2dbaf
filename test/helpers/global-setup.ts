/**
 * Resolves one Redis for the whole test run and hands its URL to every test file through
 * `inject('redisUrl')`. Started here (not per file) so a redis-server fallback starts once.
 */
import type { TestProject } from 'vitest/node';
import 'vitest';
import { resolveRedis, type ResolvedRedis } from './redis.js';

let resolved: ResolvedRedis | undefined;

export async function setup(project: TestProject): Promise<void> {
  resolved = await resolveRedis();
  project.provide('redisUrl', resolved.url);
}

export async function teardown(): Promise<void> {
  await resolved?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}
