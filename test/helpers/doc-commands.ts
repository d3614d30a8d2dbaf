/**
 * The `listing-sync` invocations in a Markdown file's shell examples, and a check of each against
 * the built CLI's own `--help`. Used by docs-commands.test.ts (the README and docs/ checked whole)
 * and by readme-recipes.test.ts (the three uses run as written).
 */
import { parseHelp } from '../../scripts/cli-help.js';
import { runCli } from './run-cli.js';

export interface DocInvocation {
  /** `FILE:LINE` of the example, for the failure message. */
  where: string;
  /** The example's line as written (continuations joined). */
  line: string;
  /** The words after the CLI's name: command, subcommand, flags and values. */
  args: string[];
}

/** Fenced blocks a reader would paste into a shell. */
const SHELL_FENCE = /^```(sh|bash|shell|console)\s*$/;

/**
 * Every spelling of the CLI a document may use: npx (from the repository), the npm script, the
 * built file, an alias of it, and `npm run demo` (the script for `listing-sync demo`).
 */
const INVOCATION =
  /(?:^|\s)(?:npx(?:\s+--no-install)?\s+listing-sync|npm\s+run(?:\s+-s)?\s+cli\s+--|node\s+(?:\S*\/)?dist\/cli\/listing-sync\.cjs|listing-sync)(?=\s|$)(.*)$/;
const DEMO_SCRIPT = /(?:^|\s)npm\s+run(?:\s+-s)?\s+demo(?:\s+--)?(?=\s|$)(.*)$/;

/** Words as a shell splits them: quotes group, and are removed. */
export function shellWords(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

/** A line without its comment: a `#` that starts a word, outside quotes. */
function withoutComment(line: string): string {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? '';
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1] ?? ''))) return line.slice(0, i);
  }
  return line;
}

/** The shell lines of `markdown`'s shell blocks, continuations joined, prompts and comments removed. */
export function shellLines(markdown: string, file: string): Array<{ where: string; line: string }> {
  const out: Array<{ where: string; line: string }> = [];
  const lines = markdown.split('\n');
  let fence: string | undefined;
  let pending = '';
  let pendingAt = 0;
  lines.forEach((raw, index) => {
    if (fence === undefined) {
      if (SHELL_FENCE.test(raw.trim())) fence = raw.trim();
      return;
    }
    if (raw.trim().startsWith('```')) {
      fence = undefined;
      return;
    }
    const text = fence === '```console' ? raw.replace(/^\s*\$\s+/, '') : raw;
    if (pending === '') pendingAt = index + 1;
    const joined = pending + text;
    if (/\\\s*$/.test(joined)) {
      pending = joined.replace(/\\\s*$/, ' ');
      return;
    }
    pending = '';
    const line = withoutComment(joined).trim();
    if (line !== '') out.push({ where: `${file}:${pendingAt}`, line });
  });
  return out;
}

/** Every `listing-sync` invocation in `markdown`'s shell blocks (a line may chain several with && ; |). */
export function docInvocations(markdown: string, file: string): DocInvocation[] {
  const found: DocInvocation[] = [];
  for (const { where, line } of shellLines(markdown, file)) {
    for (const part of line.split(/&&|\|\||;|\|/)) {
      const demo = DEMO_SCRIPT.exec(part);
      if (demo) {
        found.push({ where, line, args: ['demo', ...shellWords(demo[1] ?? '')] });
        continue;
      }
      const match = INVOCATION.exec(part);
      if (match) found.push({ where, line, args: shellWords(match[1] ?? '') });
    }
  }
  return found;
}

interface HelpPage {
  subcommands: string[];
  /** Every name of every flag its --help lists (own and shared). */
  flags: Set<string>;
}

/** Reads a command's --help from the built CLI: its subcommands and its flags (own and shared). */
export function helpReader(): (path: readonly string[]) => Promise<HelpPage> {
  const cache = new Map<string, Promise<HelpPage>>();
  return async (path) => {
    const key = path.join(' ');
    let page = cache.get(key);
    if (!page) {
      page = runCli([...path, '--help'], { COLUMNS: '1000' }).then((run) => {
        if (run.code !== 0) throw new Error(`listing-sync ${key} --help exited ${String(run.code)}: ${run.stderr}`);
        const parsed = parseHelp(run.stdout);
        return { subcommands: parsed.subcommands, flags: new Set(parsed.flags.flatMap((flag) => flag.names)) };
      });
      cache.set(key, page);
    }
    return await page;
  };
}

/**
 * What is wrong with one invocation, in words (empty when nothing): an unknown command or
 * subcommand, a command group named without its subcommand, a flag its --help does not list.
 */
export async function invocationProblems(args: readonly string[], help: (path: readonly string[]) => Promise<HelpPage>): Promise<string[]> {
  const path: string[] = [];
  let page = await help(path);
  let at = 0;
  while (page.subcommands.length > 0) {
    const word = args[at];
    if (word === undefined || word.startsWith('-')) {
      if (path.length === 0 && args.every((w) => w === '--help' || w === '--version' || w === '-h' || w === '-V')) return [];
      return [`'${['listing-sync', ...path].join(' ')}' needs a command (one of ${page.subcommands.join(', ')})`];
    }
    if (!page.subcommands.includes(word))
      return [`'${word}' is not a command of '${['listing-sync', ...path].join(' ')}' (${page.subcommands.join(', ')})`];
    path.push(word);
    at += 1;
    page = await help(path);
  }
  const flags = page.flags;
  return args
    .slice(at)
    .filter((word) => word.startsWith('-') && word !== '-' && word !== '--')
    .map((word) => word.split('=')[0] ?? word)
    .filter((flag) => !flags.has(flag))
    .map((flag) => `${flag} is not a flag of 'listing-sync ${path.join(' ')}' (its --help lists ${[...flags].join(' ')})`);
}
