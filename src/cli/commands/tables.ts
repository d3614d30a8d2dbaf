/** `listing-sync tables --random-code C` (endpoint 7): a project's tables and their field names. */
import type { Command } from 'commander';
import { addConnectionOptions, withServiceClient, type ConnectionOptions } from '../wiring/api-wiring.js';
import { EXIT } from '../exit-codes.js';
import type { RegisterCommands } from '../host.js';
import { printJson } from '../io.js';
import { required } from '../input/option-values.js';
import { plural } from '../../shared/counts.js';

interface TablesOptions extends ConnectionOptions {
  randomCode?: string;
}

export const registerTablesCommands: RegisterCommands = (program: Command, host) => {
  addConnectionOptions(
    program
      .command('tables')
      .description("list a project's data tables and their field names")
      .option('--random-code <code>', "the project's random code"),
  ).action((options: TablesOptions) =>
    host.run(() =>
      withServiceClient(
        options,
        host.io,
        'site',
        () => required(options.randomCode, '--random-code', "the project's random code"),
        async ({ client, json, io }, randomCode) => {
          const tables = await client.listTables(randomCode);
          if (json) {
            printJson(io, { randomCode, tables });
            return EXIT.ok;
          }
          const lines = tables.map(
            (table) =>
              `${table.TableName} (${table.TableDisplayName}, id ${table.ID}): ` +
              `${table.FieldDefinitions.map((field) => field.FieldName).join(', ') || 'no fields'}`,
          );
          io.stdout.write([...lines, plural(tables.length, 'table')].map((line) => `${line}\n`).join(''));
          return EXIT.ok;
        },
      ),
    ),
  );
};
