/**
 * `listing-sync sources list|show`: where RESO replication stands per (chatbot, feed) — the
 * watermark, the last run, records, requests and bytes — and, with --feed-budget, how much of the
 * feed credential's request budget is used now. The feed is shown in its display form only.
 */
import type { Command } from 'commander';
import { UsageError } from '../../shared/errors.js';
import { parseFeedBudget } from '../../feed/reso-api/budget-spec.js';
import type { FeedBudgetUsage } from '../../store/feed-budget.js';
import type { FeedSource } from '../../store/feed-sources.js';
import type { Store } from '../../store/store.js';
import { feedBudgetId, replicationFeedId, type FeedClientIdentity } from '../../sync/replication-ids.js';
import { EXIT } from '../exit-codes.js';
import { fleetSequenceLine, sourceBlock, sourceLine } from '../output/format-sources.js';
import { fleetSequences } from '../../sync/fleet-sequence.js';
import { fleetForDisplay } from '../../sync/fleet-view.js';
import { fleetRecordsOf } from '../wiring/fleet-wiring.js';
import type { CommandHost, RegisterCommands } from '../host.js';
import { printJson } from '../io.js';
import { addRedisOptions, withQueueConfig, type RedisFlags } from '../wiring/with-queue.js';

interface SourcesFlags extends RedisFlags {
  feedBudget?: string;
}

const BUDGET_HELP = 'the feed budget the syncs use (a preset such as mls-grid, or 2/s,7200/h,40000/d): shows its usage now';

/** The budget usage of a source's credential; undefined without --feed-budget. */
async function usageOf(store: Store, source: FeedSource, spec: string | undefined, client: FeedClientIdentity | undefined) {
  if (spec === undefined) return undefined;
  return await store.feedBudget(feedBudgetId(source.feed, client), parseFeedBudget(spec)).usage();
}

type WithUsage = FeedSource & { budget?: FeedBudgetUsage };

export const registerSourcesCommands: RegisterCommands = (program: Command, host: CommandHost) => {
  const sources = program
    .command('sources')
    .description('RESO replication sources: watermark, last run, requests and bytes per (chatbot, feed)');
  addRedisOptions(sources.command('list').description('every source, by chatbot then feed'))
    .option('--feed-budget <spec>', BUDGET_HELP)
    .action((flags: SourcesFlags) =>
      withQueueConfig(host, flags, async (ctx, config, json) => {
        const client = config.feedAuth.oauth;
        const list: WithUsage[] = [];
        for (const source of await ctx.store.feedSources.list()) {
          const budget = await usageOf(ctx.store, source, flags.feedBudget, client);
          list.push(budget === undefined ? source : { ...source, budget });
        }
        if (json) printJson(host.io, { sources: list });
        else
          host.io.stdout.write(
            list.length === 0 ? 'no sources\n' : `${list.map((source) => sourceLine(source, source.budget)).join('\n')}\n`,
          );
      }),
    );
  addRedisOptions(sources.command('show').description('one source: watermark, last run, totals, last sweep, budget usage'))
    .requiredOption('--chatbot <serial>', 'the chatbot')
    .requiredOption('--feed <url>', 'the feed URL as given to sync --replicate')
    .option('--feed-budget <spec>', BUDGET_HELP)
    .action((flags: SourcesFlags & { chatbot: string; feed: string }) =>
      withQueueConfig(host, flags, async (ctx, config, json) => {
        const source = await ctx.store.feedSources.show(flags.chatbot, replicationFeedId(flags.feed));
        if (source === undefined)
          throw new UsageError(`no replication source for chatbot ${flags.chatbot} and that feed (see \`listing-sync sources list\`)`);
        const budget = await usageOf(ctx.store, source, flags.feedBudget, config.feedAuth.oauth);
        // The display policy's dated rules still to come, as the last run read its policy: what the next runs will change.
        const last = source.lastRun === undefined ? undefined : await ctx.store.runs.getRun(source.lastRun.runId);
        const coming = last?.summary?.display?.coming ?? [];
        // A chatbot of an `events: true` fleet source: where the source's one event read starts next.
        const fleet = await fleetForDisplay(fleetRecordsOf(ctx, config).records);
        const [fleetEvents] = await fleetSequences(fleet, ctx.store.feedSources, { chatbot: flags.chatbot });
        const shown = {
          ...source,
          ...(budget === undefined ? {} : { budget }),
          ...(coming.length === 0 ? {} : { displayComing: coming }),
          ...(fleetEvents === undefined ? {} : { fleetEvents }),
        };
        if (json) printJson(host.io, shown);
        else
          host.io.stdout.write(
            `${sourceBlock(source, budget)}${fleetEvents === undefined ? '' : `${fleetSequenceLine(fleetEvents)}\n`}` +
              coming.map((rule) => `display rule coming ${rule}\n`).join(''),
          );
        return EXIT.ok;
      }),
    );
};
