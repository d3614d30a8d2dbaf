/**
 * The shared flags (src/cli/input/shared-flags.ts over config.ts CONFIG_FLAG_ENV): every config flag a
 * command offers names the env variable resolveConfig reads for it, and what a command line gives
 * reaches the configuration.
 */
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { configFromCli } from '../../src/cli/input/config-from-cli.js';
import { buildProgram } from '../../src/cli/program.js';
import { createReleaseStack } from '../../src/cli/wiring/release-stack.js';
import { CONFIG_FLAG_ENV, CONFIG_FLAG_NAMES, configFlag } from '../../src/config/config.js';

const program = buildProgram(
  { env: {}, stdout: new PassThrough(), stderr: new PassThrough(), onShutdown: () => {}, releases: createReleaseStack() },
  () => {},
);

function commands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(commands)];
}

describe('shared flags', () => {
  it("say in every command's help which env variable each config flag overrides", () => {
    let seen = 0;
    for (const command of commands(program)) {
      for (const name of CONFIG_FLAG_NAMES) {
        const option = command.options.find((o) => o.long === configFlag(name));
        if (option === undefined) continue;
        seen += 1;
        expect(option.description, `${command.name()} ${configFlag(name)}`).toContain(`(env ${CONFIG_FLAG_ENV[name]}`);
      }
    }
    expect(seen).toBeGreaterThan(30);
  });

  it('declare --log-level the same way wherever it is offered', () => {
    const descriptions = new Set(
      commands(program).flatMap((c) => c.options.filter((o) => o.long === '--log-level').map((o) => `${o.flags} ${o.description}`)),
    );
    expect([...descriptions]).toEqual(['--log-level <level> fatal, error, warn, info, debug, trace or silent (env LOG_LEVEL)']);
  });

  it('reach the configuration, over the env', () => {
    const config = configFromCli(
      { redisUrl: 'redis://flag:6379', prefix: 'p-flag', logLevel: 'debug', concurrency: '3', json: true },
      { env: { REDIS_URL: 'redis://env:6379', LISTING_SYNC_PREFIX: 'p-env' } },
    );
    expect(config.redis).toEqual({ url: 'redis://flag:6379', prefix: 'p-flag' });
    expect(config.logLevel).toBe('debug');
    expect(config.worker.concurrency).toBe(3);
  });
});
