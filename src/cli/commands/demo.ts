/**
 * `listing-sync demo` (`npm run demo`): the main job on an embedded default. A simulator with a
 * seeded chatbot, a sample feed from fixtures/, a sync with workers in this process while the
 * simulator injects faults, the summary; then replication from an MLS (the RESO Web API
 * simulator) into a second chatbot, a first pull and an incremental one (demo-replication.ts);
 * then the dashboard on 127.0.0.1 until Ctrl-C. Under LISTING_SYNC_PREFIX when set (a name with
 * 'demo' in it), else `listing-sync-demo`: the one prefix it cleans first.
 */
import type { Command } from 'commander';
import { EXIT } from '../exit-codes.js';
import type { CommandHost, RegisterCommands } from '../host.js';

export const registerDemoCommands: RegisterCommands = (program: Command, host: CommandHost) => {
  program
    .command('demo')
    .description(
      'sync a sample feed into a simulated chatbot (with injected faults), replicate a simulated MLS (RESO Web ' +
        'API) into another, then serve the dashboard',
    )
    .option('--port <n>', 'dashboard port on 127.0.0.1 (0 = any free port)', '8080')
    .option('--exit-after-sync', 'stop after printing the summaries (no dashboard)')
    .option('--own-redis', 'start a throw-away redis-server from PATH for the demo, even when REDIS_URL or 127.0.0.1:6379 answers')
    .action((flags: { port?: string; exitAfterSync?: boolean; ownRedis?: boolean }) =>
      host.run(async () => {
        const { runDemo } = await import('../demo/demo-run.js');
        return (await runDemo(host, flags)) === EXIT.ok ? EXIT.ok : EXIT.failed;
      }),
    );
};
