/**
 * A command's `--help` page read back: its usage, description, subcommands and flags. The one
 * reader of the CLI's help text for the docs: scripts/docs-flag-reference.ts writes
 * docs/configuration.md's flag tables from it, and test/e2e/docs-commands.test.ts checks the
 * docs' examples and those tables against it. Run the CLI with a wide COLUMNS so that every
 * entry is one line (a wrapped one is joined again).
 */

export interface HelpFlag {
  /** As the help shows it: `--feed <path|url>`, `-V, --version`. */
  spelling: string;
  /** The flag's names: `--feed`; `-V` and `--version`. */
  names: string[];
  description: string;
}

export interface HelpPage {
  /** The usage line after the program's name: `sync [options]`. */
  usage: string;
  description: string;
  subcommands: string[];
  /** Own and shared flags, in the order shown. */
  flags: HelpFlag[];
}

export function parseHelp(text: string): HelpPage {
  const lines = text.split('\n');
  const usage = (lines[0] ?? '').replace(/^Usage: \S+ ?/, '');
  const description = (lines[2] ?? '').trim();
  const subcommands: string[] = [];
  const flags: HelpFlag[] = [];
  let section = '';
  for (const line of lines.slice(3)) {
    if (/^\S.*:$/.test(line)) {
      section = line;
      continue;
    }
    if (section === 'Commands:') {
      const name = /^ {2}([a-z][\w-]*)/.exec(line)?.[1];
      if (name && name !== 'help') subcommands.push(name);
      continue;
    }
    if (!section.endsWith('ptions:')) continue;
    const last = flags.at(-1);
    if (/^ {3,}\S/.test(line) && last) {
      last.description = `${last.description} ${line.trim()}`.trim();
      continue;
    }
    const entry = /^ {2}(-\S.*?)(?:\s{2,}(.*))?$/.exec(line);
    if (!entry) continue;
    const spelling = entry[1] ?? '';
    const names = spelling.split(', ').map((part) => part.split(' ')[0] ?? part);
    flags.push({ spelling, names, description: (entry[2] ?? '').trim() });
  }
  return { usage, description, subcommands, flags };
}
