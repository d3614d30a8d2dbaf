/**
 * The frame of the short queue commands (`runs list|show|cancel`, `jobs …`, `schedule …`): their
 * shared flags, config, and store and queues over a fail-fast connection, released by main.ts.
 */
import type { Command } from 'commander';
import type { Config, ConfigFlags } from '../../config/config.js';
import { configFromCli } from '../input/config-from-cli.js';
import type { CommandHost } from '../host.js';
import { queueContextOnStack } from './on-stack.js';
import type { QueueContext } from './queue-context.js';
import type { ActionResult } from '../run-action.js';
import { addSharedFlags, REDIS_FLAGS } from '../input/shared-flags.js';

export interface RedisFlags extends Pick<ConfigFlags, 'redisUrl' | 'redisClusterNodes' | 'prefix' | 'logLevel'> {
  json?: boolean;
}

/** The Redis, log and --json options every queue command takes. */
export function addRedisOptions(cmd: Command): Command {
  return addSharedFlags(cmd, REDIS_FLAGS);
}

/** Runs `body` with store and queues open (fail-fast connection). */
export async function withQueue(
  host: CommandHost,
  flags: RedisFlags,
  body: (ctx: QueueContext, json: boolean) => Promise<ActionResult>,
): Promise<void> {
  await withQueueConfig(host, flags, (ctx, _config, json) => body(ctx, json));
}

/** `withQueue` for a body that also reads the resolved config (e.g. the feed credentials' identity). */
export async function withQueueConfig(
  host: CommandHost,
  flags: RedisFlags,
  body: (ctx: QueueContext, config: Config, json: boolean) => Promise<ActionResult>,
): Promise<void> {
  await host.run(async () => {
    const config = configFromCli(flags, host.io);
    return await body(await queueContextOnStack(host.io, config, 'producer'), config, flags.json === true);
  });
}
