/**
 * `listing-sync media gc [--dry-run]`: removes the hosted photos no listing of any chatbot shows
 * any more, once unreferenced for the grace period (src/sync/media-gc.ts); the workers' upkeep does
 * the same on its own. `--dry-run` prints what it would remove and changes nothing.
 */
import type { Command } from 'commander';
import { UsageError } from '../../shared/errors.js';
import { DEFAULT_MEDIA_GRACE_MS, mediaGc } from '../../sync/media-gc.js';
import { EXIT } from '../exit-codes.js';
import type { CommandHost, RegisterCommands } from '../host.js';
import { printJson } from '../io.js';
import { durationMs } from '../input/option-values.js';
import { addSharedFlags } from '../input/shared-flags.js';
import { openConfiguredStore } from '../wiring/photo-wiring.js';
import { addRedisOptions, withQueueConfig, type RedisFlags } from '../wiring/with-queue.js';
import { plural } from '../../shared/counts.js';

interface MediaGcFlags extends RedisFlags {
  dryRun?: boolean;
  grace?: string;
}

export const registerMediaCommands: RegisterCommands = (program: Command, host: CommandHost) => {
  const media = program.command('media').description('hosted photos (docs/photos.md)');
  const gc = media
    .command('gc')
    .description('remove stored photos no listing of any chatbot shows, once unreferenced for the grace period')
    .option('--dry-run', 'print what would be removed; remove nothing')
    .option('--grace <duration>', 'how long a photo stays unreferenced before it is removed (default 7 days; e.g. 168h, 36h, 0s)');
  addSharedFlags(gc, ['mediaStore']);
  addRedisOptions(gc).action((flags: MediaGcFlags) =>
    withQueueConfig(host, flags, async (ctx, config, json) => {
      const storeUrl = config.media.store;
      if (storeUrl === undefined) throw new UsageError('media gc needs --media-store (or LISTING_SYNC_MEDIA_STORE): the store to clean');
      const graceMs = flags.grace === undefined ? DEFAULT_MEDIA_GRACE_MS : durationMs(flags.grace, '--grace');
      const store = openConfiguredStore(config, storeUrl);
      try {
        const result = await mediaGc({ store, photos: ctx.store.photos, graceMs, dryRun: flags.dryRun === true });
        if (json) printJson(host.io, { dryRun: flags.dryRun === true, ...result });
        else {
          const verb = flags.dryRun === true ? 'would remove' : 'removed';
          for (const { key } of result.removed) host.io.stdout.write(`${verb} ${key}\n`);
          host.io.stdout.write(
            `media gc: ${verb} ${plural(result.removed.length, 'photo')}; ${result.waiting} unreferenced within the grace period, ` +
              `${result.referenced} shown by a listing\n`,
          );
        }
        return EXIT.ok;
      } finally {
        await store.close();
      }
    }),
  );
};
