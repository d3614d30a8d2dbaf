/**
 * How `--help` is laid out: wrapped to the terminal (or COLUMNS, else 80 columns), a command's own
 * flags before the shared ones, descriptions that do not fit beside a long flag put under it
 * instead of running past the edge, and examples at the end of each command.
 */
import { Command, Help, type Option } from 'commander';
import { examplesText, HELP_EXAMPLES } from './help-examples.js';
import type { CliIo } from '../io.js';
import { SHARED_OPTIONS_HEADING } from '../input/shared-flags.js';

/** Wider than this, help lines get hard to read; the text wraps here even on a wider terminal. */
const MOST_COLUMNS = 120;
const DEFAULT_COLUMNS = 80;

/** The width help wraps to: the terminal's, else COLUMNS (which shells export), else 80. */
export function helpWidth(io: Pick<CliIo, 'env'>, stream: CliIo['stdout']): number {
  const columns = (stream as { columns?: unknown }).columns;
  const fromTty = stream.isTTY === true && typeof columns === 'number' && columns > 0 ? columns : undefined;
  const fromEnv = Number(io.env.COLUMNS);
  const width = fromTty ?? (Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_COLUMNS);
  return Math.min(Math.max(width, 40), MOST_COLUMNS);
}

/** A description's indent when it goes under its flag rather than beside it. */
const UNDER_INDENT = 6;

/**
 * commander's Help with two changes. Why a subclass: commander leaves a description unwrapped when
 * the flag column is too wide for it (a 250-character line at 80 columns); here it goes on the
 * lines below the flag. And option groups are listed with the command's own first.
 */
class ListingSyncHelp extends Help {
  override formatItem(term: string, termWidth: number, description: string, helper: Help): string {
    const width = this.helpWidth ?? DEFAULT_COLUMNS;
    const beside = width - termWidth - 4;
    if (!description || beside >= this.minWidthToWrap || helper.preformatted(description)) {
      return super.formatItem(term, termWidth, description, helper);
    }
    const wrapped = helper.boxWrap(description, width - UNDER_INDENT);
    return `  ${term}\n${wrapped.replace(/^/gm, ' '.repeat(UNDER_INDENT))}`;
  }

  override groupItems<T extends Command | Option>(unsorted: T[], visible: T[], getGroup: (item: T) => string): Map<string, T[]> {
    const groups = super.groupItems(unsorted, visible, getGroup);
    const shared = groups.get(SHARED_OPTIONS_HEADING);
    if (shared === undefined) return groups;
    groups.delete(SHARED_OPTIONS_HEADING);
    groups.set(SHARED_OPTIONS_HEADING, shared);
    return groups;
  }
}

function pathOf(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** A Command whose help (and every subcommand's) is laid out by ListingSyncHelp. */
export class ListingSyncCommand extends Command {
  override createCommand(name?: string): Command {
    return new ListingSyncCommand(name);
  }

  override createHelp(): Help {
    return Object.assign(new ListingSyncHelp(), this.configureHelp());
  }
}

/** Wraps help to the width of the stream it goes to; call before commands are added (subcommands inherit it). */
export function configureHelpWidth(program: Command, io: Pick<CliIo, 'env' | 'stdout' | 'stderr'>): void {
  program.configureOutput({
    ...program.configureOutput(),
    getOutHelpWidth: () => helpWidth(io, io.stdout),
    getErrHelpWidth: () => helpWidth(io, io.stderr),
  });
}

/** Adds every command's examples (help-examples.ts) to the end of its help; call once the tree is built. */
export function addExamples(program: Command, io: Pick<CliIo, 'env' | 'stdout'>): void {
  const visit = (command: Command): void => {
    const examples = HELP_EXAMPLES[pathOf(command)];
    if (examples !== undefined) command.addHelpText('after', () => examplesText(examples, helpWidth(io, io.stdout)));
    for (const sub of command.commands) visit(sub);
  };
  visit(program);
}
