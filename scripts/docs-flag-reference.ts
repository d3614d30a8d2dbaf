/**
 * Writes the "Every command's flags" part of docs/configuration.md from the built CLI's own
 * `--help`: one table per command, its flags and the shared ones, as the help words them.
 * Run after `npm run build` whenever a command or flag is added or reworded:
 *
 *   npx tsx scripts/docs-flag-reference.ts
 *
 * test/e2e/docs-commands.test.ts fails while a flag of the CLI is missing from that page.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseHelp, type HelpPage } from './cli-help.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const page = join(root, 'docs/configuration.md');
const HEADING = "## Every command's flags";

function helpOf(path: readonly string[]): HelpPage {
  const text = execFileSync(process.execPath, [join(root, 'dist/cli/listing-sync.cjs'), ...path, '--help'], {
    env: { PATH: process.env.PATH ?? '', COLUMNS: '1000' },
    encoding: 'utf8',
  });
  return parseHelp(text);
}

function leafCommands(path: string[] = []): Array<{ path: string[]; help: HelpPage }> {
  const help = helpOf(path);
  if (help.subcommands.length === 0) return [{ path, help }];
  return help.subcommands.flatMap((name) => leafCommands([...path, name]));
}

function section({ path, help }: { path: string[]; help: HelpPage }): string {
  const description = help.description.charAt(0).toUpperCase() + help.description.slice(1);
  const head = `### \`${path.join(' ')}\`\n\n${description}. Usage: \`npx listing-sync ${help.usage}\`.\n`;
  const rows = help.flags
    .filter((flag) => !flag.names.includes('--help'))
    .map((flag) => `| \`${flag.spelling}\` | ${flag.description.replaceAll('|', '\\|')} |`);
  return rows.length === 0 ? `${head}\nNo flags of its own.\n` : `${head}\n| flag | meaning |\n|---|---|\n${rows.join('\n')}\n`;
}

const text = readFileSync(page, 'utf8');
const at = text.indexOf(HEADING);
if (at < 0) throw new Error(`${page} has no '${HEADING}' heading`);
const start = text.indexOf('\n### `', at);
const next = text.indexOf('\n## ', at + HEADING.length);
const end = next < 0 ? text.length : next + 1;
const generated = leafCommands().map(section).join('\n');
writeFileSync(page, `${text.slice(0, start < 0 || start > end ? end : start + 1)}${generated}${next < 0 ? '' : `\n${text.slice(end)}`}`);
console.log(`docs/configuration.md: ${HEADING.slice(3)} written from --help`);
