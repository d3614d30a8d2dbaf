/**
 * A misspelt flag is reported as such, with commander's "Did you mean …?", also when it is the
 * spelling of a required flag. Why: commander checks required flags before unknown ones, so
 * `sync --chatbto x` said only that --chatbot was missing. Required flags are checked here in a
 * preAction hook instead, which commander runs after its unknown-option check.
 */
import type { Command, Option } from 'commander';

/** `command` and every command under it. */
export function commandsOf(command: Command): Command[] {
  return [command, ...command.commands.flatMap(commandsOf)];
}

/** Moves every required-flag check in the tree under `program` after the unknown-flag check. */
export function reportUnknownFlagsFirst(program: Command): void {
  const required = new Map<Command, Option[]>();
  for (const command of commandsOf(program)) {
    const options = command.options.filter((option) => option.mandatory);
    for (const option of options) option.mandatory = false;
    if (options.length > 0) required.set(command, options);
  }
  program.hook('preAction', (_program, action) => {
    for (const option of required.get(action) ?? []) {
      if (action.getOptionValue(option.attributeName()) === undefined) {
        // commander's own wording and code for a missing required option.
        action.error(`error: required option '${option.flags}' not specified`, { code: 'commander.missingMandatoryOptionValue' });
      }
    }
  });
}
