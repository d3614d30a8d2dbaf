/** `listing-sync runs list|show`, and `cancel`/`resume` from run-control.ts. */
import type { Command } from 'commander';
import { UsageError } from '../../shared/errors.js';
import { EXIT } from '../exit-codes.js';
import { runsTable } from '../output/format-run.js';
import { runDetails } from '../output/format-run-details.js';
import type { CommandHost, RegisterCommands } from '../host.js';
import { printJson } from '../io.js';
import { wholeNumber } from '../input/option-values.js';
import { addRedisOptions, withQueue, withQueueConfig, type RedisFlags } from '../wiring/with-queue.js';
import { displayedFleet } from '../wiring/fleet-read-wiring.js';
import { runSourceOf } from '../../sync/run-source.js';
import { registerRunControl } from './run-control.js';

export const registerRunsCommands: RegisterCommands = (program: Command, host: CommandHost) => {
  const runs = program.command('runs').description('sync runs and what they did');
  addRedisOptions(runs.command('list').description('runs, newest first'))
    .option('--chatbot <serial>', 'only runs of this chatbot')
    .option('--limit <n>', 'how many runs (default 20)')
    .action((flags: RedisFlags & { chatbot?: string; limit?: string }) =>
      withQueueConfig(host, flags, async (ctx, config, json) => {
        const limit = wholeNumber(flags.limit, '--limit') ?? 20;
        const [list, fleet] = await Promise.all([
          ctx.store.runs.listRuns({ ...(flags.chatbot ? { chatbot: flags.chatbot } : {}), limit }),
          displayedFleet(ctx, config),
        ]);
        const sources = list.map((run) => runSourceOf(run, fleet));
        if (json) printJson(host.io, { runs: list.map((run, i) => ({ ...run, source: sources[i] ?? null })) });
        else host.io.stdout.write(runsTable(list, sources, limit));
      }),
    );
  addRedisOptions(runs.command('show').argument('<id>', 'run id').description('one run: summary and live counts')).action(
    (id: string, flags: RedisFlags) =>
      withQueue(host, flags, async (ctx, json) => {
        const run = await ctx.store.runs.getRun(id);
        if (!run) throw new UsageError(`no run ${id} (see \`listing-sync runs list\`)`);
        if (json) printJson(host.io, run);
        else host.io.stdout.write(runDetails(run));
        return run.counts.failedJobs > 0 ? EXIT.failed : EXIT.ok;
      }),
  );
  registerRunControl(runs, host);
};
