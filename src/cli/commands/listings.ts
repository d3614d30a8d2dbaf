/**
 * `listing-sync listings list|create|update|delete` (endpoints 5, 3, 4, 6). Every input is checked
 * before the first request; output is text for people or, with --json, one JSON object.
 */
import type { Command } from 'commander';
import type { ListRequest } from '../../api/schemas.js';
import { ALL_PAGE_SIZE, normaliseReadItem, readListings } from '../../sync/listing-reads.js';
import { listingUpdateSchema, listingWriteSchema } from '../../api/schemas.js';
import { KEY_TYPES, SALE_TYPES, type ListingUpdate, type ListingWrite } from '../../domain/listing.js';
import { ListingSyncError, UsageError } from '../../shared/errors.js';
import { addConnectionOptions, withServiceClient, type ConnectionOptions } from '../wiring/api-wiring.js';
import { EXIT } from '../exit-codes.js';
import { countLines, listingTable } from '../output/format-listings.js';
import type { RegisterCommands } from '../host.js';
import { printJson } from '../io.js';
import { asObject, chatbotFrom, allowedValue, required, wholeNumber } from '../input/option-values.js';
import { readJsonFile } from '../input/read-json-file.js';
import { validateInput } from '../input/validate-input.js';
import { count, plural } from '../../shared/counts.js';

interface ListOptions extends ConnectionOptions {
  chatbot?: string;
  city?: string;
  saleType?: string;
  mls?: string;
  page?: string;
  pageSize?: string;
  all?: boolean;
}

interface WriteOptions extends ConnectionOptions {
  chatbot?: string;
  file?: string;
  key?: string;
  keyType?: string;
}

interface DeleteOptions extends ConnectionOptions {
  chatbot?: string;
  keyType?: string;
}

const WRITE_FIELDS = Object.keys(listingWriteSchema.shape);
const KEY_TYPE_HELP = KEY_TYPES.join('|');

function listRequest(options: ListOptions): ListRequest {
  if (options.all && options.page !== undefined) throw new UsageError('--all reads every page: leave out --page');
  const request: ListRequest = { SerialNumber: required(options.chatbot, '--chatbot', "the chatbot's serial number") };
  if (options.city !== undefined) request.CityName = options.city;
  if (options.saleType !== undefined) request.SaleType = allowedValue(options.saleType, '--sale-type', SALE_TYPES);
  if (options.mls !== undefined) request.MLSNumber = options.mls;
  const page = wholeNumber(options.page, '--page');
  const pageSize = wholeNumber(options.pageSize, '--page-size') ?? (options.all ? ALL_PAGE_SIZE : undefined);
  if (page !== undefined) request.PageNumber = page;
  if (pageSize !== undefined) request.PageSize = pageSize;
  return request;
}

async function listingFromFile(options: WriteOptions): Promise<Record<string, unknown>> {
  const path = required(options.file, '--file', 'a JSON file with the listing in the write shape, api-spec 2.3');
  const content = asObject(await readJsonFile(path), path);
  return { ...content, SerialNumber: chatbotFrom(options.chatbot, content.SerialNumber, 'SerialNumber') };
}

async function createInput(options: WriteOptions): Promise<ListingWrite> {
  const listing = await listingFromFile(options);
  return validateInput(listingWriteSchema, listing, options.file ?? '--file', WRITE_FIELDS);
}

async function updateInput(options: WriteOptions): Promise<ListingUpdate> {
  const Key = required(options.key, '--key', 'the value that selects the listing, e.g. its MLS number');
  const KeyType = allowedValue(required(options.keyType, '--key-type', KEY_TYPE_HELP), '--key-type', KEY_TYPES);
  const listing = await listingFromFile(options);
  return validateInput(listingUpdateSchema, { ...listing, Key, KeyType }, options.file ?? '--file', [...WRITE_FIELDS, 'Key', 'KeyType']);
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function registerList(listings: Command, host: Parameters<RegisterCommands>[1]): void {
  addConnectionOptions(
    listings
      .command('list')
      .description("show a chatbot's listings (one page, or every page with --all)")
      .option('--chatbot <serial>', "the chatbot's serial number")
      .option('--city <name>', 'only listings in this city')
      .option('--sale-type <type>', `only ${SALE_TYPES.join(' or ')}`)
      .option('--mls <number>', 'only the listing with this MLS number')
      .option('--page <n>', 'page number (service default 1)')
      .option('--page-size <n>', `listings per page (service default 20; --all uses ${ALL_PAGE_SIZE})`)
      .option('--all', 'read every page and check the total against VirtualCount'),
  ).action((options: ListOptions) =>
    host.run(() =>
      withServiceClient(
        options,
        host.io,
        'api',
        () => listRequest(options),
        async ({ client, json, io }, request) => {
          const { items, virtualCount } = await readListings(client, request, options.all === true);
          if (json)
            printJson(io, {
              chatbot: request.SerialNumber,
              virtualCount,
              count: items.length,
              listings: items.map(normaliseReadItem),
              items,
            });
          else {
            const page = { number: request.PageNumber ?? 1, size: request.PageSize };
            io.stdout.write([...listingTable(items), ...countLines(items.length, virtualCount, page)].map((line) => `${line}\n`).join(''));
          }
          if (!options.all || items.length === virtualCount) return EXIT.ok;
          io.stderr.write(
            `listing-sync: read ${plural(items.length, 'listing')} but VirtualCount is ${count(virtualCount)}: the chatbot ` +
              `changed while reading, run again\n`,
          );
          return EXIT.failed;
        },
      ),
    ),
  );
}

function registerWrites(listings: Command, host: Parameters<RegisterCommands>[1]): void {
  addConnectionOptions(
    listings
      .command('create')
      .description('create one listing from a JSON file in the write shape (api-spec 2.3); prints its new id')
      .option('--chatbot <serial>', "the chatbot's serial number (else the file's SerialNumber)")
      .option('--file <listing.json>', 'the listing'),
  ).action((options: WriteOptions) =>
    host.run(() =>
      withServiceClient(
        options,
        host.io,
        'api',
        () => createInput(options),
        async ({ client, json, io }, listing) => {
          const id = await client.createListing(listing);
          if (json) printJson(io, { chatbot: listing.SerialNumber, id, MLSNumber: listing.MLSNumber });
          else io.stdout.write(`${id}\n`);
          return EXIT.ok;
        },
      ),
    ),
  );

  addConnectionOptions(
    listings
      .command('update')
      .description('replace one listing, selected by --key and --key-type, with a JSON file in the write shape')
      .option('--chatbot <serial>', "the chatbot's serial number (else the file's SerialNumber)")
      .option('--key <value>', 'the value that selects the listing')
      .option('--key-type <type>', `what --key is: ${KEY_TYPE_HELP} (NewOaks = the id the service issued)`)
      .option('--file <listing.json>', 'the listing'),
  ).action((options: WriteOptions) =>
    host.run(() =>
      withServiceClient(
        options,
        host.io,
        'api',
        () => updateInput(options),
        async ({ client, json, io }, update) => {
          const updated = await client.updateListing(update);
          if (json) printJson(io, { chatbot: update.SerialNumber, key: update.Key, keyType: update.KeyType, updated });
          else if (updated > 0) io.stdout.write(`updated ${plural(updated, 'listing')}\n`);
          if (updated > 0) return EXIT.ok;
          throw new ListingSyncError(
            'NOT_FOUND',
            `no listing matched ${update.KeyType} '${update.Key}' in chatbot ${update.SerialNumber}: nothing was updated`,
          );
        },
      ),
    ),
  );
}

function registerDelete(listings: Command, host: Parameters<RegisterCommands>[1]): void {
  addConnectionOptions(
    listings
      .command('delete')
      .description('delete listings by key')
      .argument('<keys...>', 'the keys of the listings to delete')
      .option('--chatbot <serial>', "the chatbot's serial number")
      .option('--key-type <type>', `what the keys are: ${KEY_TYPE_HELP}`),
  ).action((keys: string[], options: DeleteOptions) =>
    host.run(() =>
      withServiceClient(
        options,
        host.io,
        'api',
        () => ({
          SerialNumber: required(options.chatbot, '--chatbot', "the chatbot's serial number"),
          KeyType: allowedValue(required(options.keyType, '--key-type', KEY_TYPE_HELP), '--key-type', KEY_TYPES),
          Keys: [...new Set(keys.map((key) => key.trim()).filter((key) => key !== ''))],
        }),
        async ({ client, json, io, config }, request) => {
          if (request.Keys.length === 0) throw new UsageError('give at least one non-empty key to delete');
          let deleted = 0;
          // Why batches: the service documents no limit on Keys; LISTING_SYNC_DELETE_BATCH bounds each request.
          for (const batch of chunks(request.Keys, config.jobs.deleteBatchSize))
            deleted += await client.deleteListings({ ...request, Keys: batch });
          if (json)
            printJson(io, {
              chatbot: request.SerialNumber,
              keyType: request.KeyType,
              requested: request.Keys.length,
              successCount: deleted,
            });
          else io.stdout.write(`deleted ${count(deleted)} of ${plural(request.Keys.length, 'listing')}\n`);
          return EXIT.ok;
        },
      ),
    ),
  );
}

export const registerListingsCommands: RegisterCommands = (program: Command, host) => {
  const listings = program.command('listings').description("list, create, update and delete a chatbot's listings");
  registerList(listings, host);
  registerWrites(listings, host);
  registerDelete(listings, host);
};
