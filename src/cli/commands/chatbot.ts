/**
 * `listing-sync chatbot edit` (endpoint 1) and `listing-sync chatbot knowledge` (endpoint 2), each
 * for one chatbot or, with `--many FILE`, for many through the queue (chatbot-many.ts). Input is
 * typed and validated against the API schemas before any request is made.
 */
import { Help, type AddHelpTextContext, type Command } from 'commander';
import type { ChatbotSettings, KnowledgeEdit } from '../../api/schemas.js';
import { chatbotSettingsSchema, knowledgeEditSchema } from '../../api/schemas.js';
import { UsageError } from '../../shared/errors.js';
import { addConnectionOptions, withServiceClient, type ConnectionOptions } from '../wiring/api-wiring.js';
import { addSharedFlags } from '../input/shared-flags.js';
import { EXIT } from '../exit-codes.js';
import type { RegisterCommands } from '../host.js';
import { printJson } from '../io.js';
import { asObject, chatbotFrom, collect, required } from '../input/option-values.js';
import { jsonKindOf, parseSetValues } from '../input/parse-values.js';
import { readJsonFile } from '../input/read-json-file.js';
import { validateInput } from '../input/validate-input.js';
import { KNOWLEDGE_EDITS, SETTINGS_EDITS } from '../../sync/chatbot-edits.js';
import { addManyEditOptions, refuseBesideMany, runManyEdit, type ManyEditFlags } from './chatbot-many.js';

export interface ChatbotEditOptions extends ConnectionOptions {
  chatbot?: string;
  set?: string[];
  file?: string;
}

export interface KnowledgeOptions extends ConnectionOptions {
  chatbot?: string;
  file?: string;
}

const SETTINGS_FIELDS = Object.keys(chatbotSettingsSchema.shape);
const KNOWLEDGE_FIELDS = Object.keys(knowledgeEditSchema.shape);
const KIND_WORDS = { string: 'text', number: 'whole number', boolean: 'true|false', other: 'value' } as const;

/** "Name (text), Temperature (whole number), …" for the edit command's help. */
function settingsHelp({ command }: AddHelpTextContext): string {
  const fields = Object.entries(chatbotSettingsSchema.shape)
    .filter(([name]) => name !== 'serialNumber')
    .map(([name, schema]) => (name.endsWith('Color') ? `${name} (rgb(r,g,b))` : `${name} (${KIND_WORDS[jsonKindOf(schema)]})`));
  // Wrapped to the width the rest of the help has (help-layout.ts).
  const width = command.configureOutput().getOutHelpWidth?.() ?? 80;
  return `\nSettings for --set (api-spec 2.1):\n${new Help().boxWrap(fields.join(', '), width - 2).replace(/^/gm, '  ')}\n`;
}

/** The validated Edit body from `--set` pairs or a `--file` (exactly one of them). */
export async function chatbotEditSettings(options: ChatbotEditOptions): Promise<ChatbotSettings> {
  const pairs = options.set ?? [];
  if (pairs.length > 0 && options.file !== undefined)
    throw new UsageError('give either --set Field=value ... or --file settings.json, not both');
  if (options.file !== undefined) {
    const content = asObject(await readJsonFile(options.file), options.file);
    const serialNumber = chatbotFrom(options.chatbot, content.serialNumber, 'serialNumber');
    return validateInput(chatbotSettingsSchema, { ...content, serialNumber }, options.file, SETTINGS_FIELDS);
  }
  const serialNumber = required(options.chatbot, '--chatbot', "the chatbot's serial number");
  if (pairs.length === 0) throw new UsageError('nothing to change: give --set Field=value (repeatable) or --file settings.json');
  const values = parseSetValues(pairs, chatbotSettingsSchema.shape, { serialNumber: '--chatbot' });
  return validateInput(chatbotSettingsSchema, { ...values, serialNumber }, '--set', SETTINGS_FIELDS);
}

/** The validated EditKnowledge body from `--file` (rule 4.4.1 included). */
export async function knowledgeEdit(options: KnowledgeOptions): Promise<KnowledgeEdit> {
  const path = required(options.file, '--file', 'a JSON file with the knowledge-base edit, api-spec 2.2');
  const content = asObject(await readJsonFile(path), path);
  const serialNumber = chatbotFrom(options.chatbot, content.serialNumber, 'serialNumber');
  return validateInput(knowledgeEditSchema, { ...content, serialNumber }, path, KNOWLEDGE_FIELDS);
}

export const registerChatbotCommands: RegisterCommands = (program: Command, host) => {
  const chatbot = program.command('chatbot').description("edit a chatbot's settings and knowledge base");

  const edit = addManyEditOptions(
    chatbot
      .command('edit')
      .description("change a chatbot's settings (api-spec 2.1); only the fields given are sent")
      .option('--chatbot <serial>', "the chatbot's serial number")
      .option(
        '--set <Field=value>',
        'a setting to change (repeatable), e.g. --set Temperature=1 --set ChatBubbleColor=rgb(0,0,255)',
        collect,
      )
      .option('--file <settings.json>', 'a JSON object of settings instead of --set'),
    SETTINGS_EDITS,
  ).addHelpText('after', settingsHelp);
  addConnectionOptions(addSharedFlags(edit, ['redisUrl', 'redisClusterNodes', 'prefix'], { when: 'with --many' })).action(
    (options: ChatbotEditOptions & Partial<ManyEditFlags>) =>
      host.run(() => {
        if (options.many !== undefined) {
          refuseBesideMany(options, ['chatbot', 'set', 'file']);
          return runManyEdit(host, SETTINGS_EDITS, { ...options, many: options.many });
        }
        return withServiceClient(
          options,
          host.io,
          'api',
          () => chatbotEditSettings(options),
          async ({ client, json, io }, settings) => {
            const result = await client.editChatbot(settings);
            const changed = Object.keys(settings).filter((field) => field !== 'serialNumber');
            if (json) printJson(io, { chatbot: settings.serialNumber, result, changed });
            else io.stdout.write(`chatbot ${settings.serialNumber}: updated ${changed.join(', ')}\n`);
            if (result === 1) return EXIT.ok;
            io.stderr.write(`listing-sync: chatbot ${settings.serialNumber}: the service answered ${result} (1 means success)\n`);
            return EXIT.failed;
          },
        );
      }),
  );

  const knowledge = addManyEditOptions(
    chatbot
      .command('knowledge')
      .description("edit a chatbot's knowledge base (api-spec 2.2): sitemap sync, files, text, sheets, websites, Q&A")
      .option('--chatbot <serial>', "the chatbot's serial number (else the file's serialNumber)")
      .option('--file <knowledge.json>', 'a JSON object with the knowledge-base edit'),
    KNOWLEDGE_EDITS,
  );
  addSharedFlags(knowledge, ['redisUrl', 'redisClusterNodes', 'prefix'], { when: 'with --many' });
  addConnectionOptions(knowledge).action((options: KnowledgeOptions & Partial<ManyEditFlags>) =>
    host.run(() => {
      if (options.many !== undefined) {
        refuseBesideMany(options, ['chatbot', 'file']);
        return runManyEdit(host, KNOWLEDGE_EDITS, { ...options, many: options.many });
      }
      return withServiceClient(
        options,
        host.io,
        'api',
        () => knowledgeEdit(options),
        async ({ client, json, io }, edit) => {
          const result = await client.editKnowledge(edit);
          if (json) printJson(io, { chatbot: edit.serialNumber, result });
          else io.stdout.write(`chatbot ${edit.serialNumber}: knowledge base ${result ? 'updated' : 'NOT updated'}\n`);
          if (result) return EXIT.ok;
          io.stderr.write(`listing-sync: chatbot ${edit.serialNumber}: the service answered false for the knowledge edit\n`);
          return EXIT.failed;
        },
      );
    }),
  );
};
