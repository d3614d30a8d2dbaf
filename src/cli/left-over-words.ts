/**
 * A word left over after a flag's value (`--max-deletes 10 percent`) is reported as the flag's:
 * which flag, that its value is one word, and the forms it takes. Why: commander sees the extra
 * word as an argument and says only "too many arguments for 'sync'", which names neither the flag
 * nor the fix. Commands without a variadic argument accept extra words from commander, and a
 * preAction hook (run after commander's own checks) refuses them with this message instead.
 */
import type { Command, Option } from 'commander';
import { commandsOf } from './unknown-first.js';

/** Example values by a flag's placeholder (`--max-deletes <n|p%>`): what the message offers instead. */
const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  'n|p%': ['10%', '10'],
  'p%': ['5%'],
  percent: ['5%'],
  n: ['10'],
  ms: ['1500'],
  duration: ['20m', '90s'],
  rate: ['0.1'],
};

/** A value as it would be typed, quoted when it holds a space. */
const typed = (value: string): string => (/\s/.test(value) ? `'${value.replace(/'/g, `'\\''`)}'` : value);

/** The flag (of `command`) whose value `word` follows, with that value; undefined when the word follows no value. */
function flagBefore(command: Command, argv: readonly string[], word: string): { option: Option; value: string } | undefined {
  const at = argv.lastIndexOf(word);
  if (at < 1) return undefined;
  const before = argv[at - 1] as string;
  const find = (name: string): Option | undefined => command.options.find((option) => option.long === name || option.short === name);
  const inline = /^(--[^=]+)=(.*)$/.exec(before);
  if (inline !== null) {
    const option = find(inline[1] as string);
    return option?.required === true ? { option, value: inline[2] as string } : undefined;
  }
  const option = at >= 2 ? find(argv[at - 2] as string) : undefined;
  return option?.required === true && !before.startsWith('-') ? { option, value: before } : undefined;
}

/** `runs show`: the command's names under the program. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/** The one line for a word left over on `command`'s line. */
export function leftOverMessage(command: Command, argv: readonly string[], word: string): string {
  const found = flagBefore(command, argv, word);
  if (found === undefined) {
    const expected = command.registeredArguments.length;
    const takes = expected === 0 ? 'takes no arguments' : `takes ${expected} argument${expected === 1 ? '' : 's'}`;
    const path = commandPath(command);
    return `listing-sync: '${word}' is one word too many: ${path} ${takes}; see listing-sync ${path} --help`;
  }
  const flag = found.option.long ?? found.option.flags;
  const placeholder = /<([^>]+)>/.exec(found.option.flags)?.[1] ?? '';
  const examples = EXAMPLES[placeholder];
  const given = `'${found.value} ${word}'`;
  if (examples !== undefined)
    return `listing-sync: ${flag} takes one word, but got ${given}: write ${examples.map((example) => `${flag} ${example}`).join(' or ')}`;
  const quoted = `${flag} ${typed(`${found.value} ${word}`)}`;
  return `listing-sync: ${flag} takes one value, but got ${given}: put quotes around a value with spaces (${quoted})`;
}

/** Reports words left over on any command of `program`'s tree as the flag's (module comment). */
export function reportLeftOverWords(program: Command): void {
  for (const command of commandsOf(program)) {
    if (command.commands.length > 0 || command.registeredArguments.at(-1)?.variadic === true) continue;
    command.allowExcessArguments(true);
  }
  program.hook('preAction', (_program, action) => {
    const extra = action.args[action.registeredArguments.length];
    if (extra === undefined || action.registeredArguments.at(-1)?.variadic === true) return;
    // rawArgs: the argv commander parsed (set on the program at parse time; its typings leave it out).
    const argv = (program as Command & { rawArgs?: string[] }).rawArgs ?? [];
    action.error(leftOverMessage(action, argv, extra), { code: 'commander.excessArguments' });
  });
}
