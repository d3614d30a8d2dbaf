/**
 * Cron patterns as BullMQ's job schedulers read them: with cron-parser, the parser BullMQ itself
 * uses (at the version it pins), given the schedule's time zone. Why a check of our own first:
 * cron-parser fills in what a pattern leaves out, so a 4-field `0 2 * *` is taken as seconds,
 * minutes, hours and day of month and fires at times nobody meant; a schedule must say exactly
 * when it runs, so only 5 fields (or 6, seconds first) are accepted.
 */
import { CronExpressionParser } from 'cron-parser';

/** The aliases cron-parser 5 knows (its PredefinedExpressions, which it does not export). */
const ALIASES = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@hourly', '@minutely', '@secondly', '@weekdays', '@weekends'];

/** Said with every refused pattern. */
export const CRON_EXAMPLE = 'e.g. "0 2 * * *" (02:00 every day) or "30 1 * * 1-5" (01:30 Monday to Friday)';

/** Why `pattern` is not a schedule BullMQ would run as meant, or undefined when it is. */
export function cronProblem(pattern: string, tz: string | undefined): string | undefined {
  const text = pattern.trim();
  if (text === '') return 'it is empty';
  if (text.startsWith('@')) {
    if (!ALIASES.includes(text)) return `'${text}' is not an alias; the aliases are ${ALIASES.join(', ')}`;
  } else {
    const fields = text.split(/\s+/).length;
    if (fields !== 5 && fields !== 6)
      return (
        `it has ${fields} field${fields === 1 ? '' : 's'}; a cron pattern has 5 (minute hour day-of-month ` +
        `month day-of-week), or 6 with seconds first`
      );
  }
  try {
    CronExpressionParser.parse(text, tz === undefined ? {} : { tz }).next();
    return undefined;
  } catch (thrown) {
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    return message.replace(/^(Constraint|Validation) error, /, '').replace(/\.$/, '');
  }
}

/** The next `count` occurrences of a valid `pattern` after `from` (epoch ms), in `tz` (else this process's zone). */
export function nextOccurrences(pattern: string, tz: string | undefined, from: number, count: number): number[] {
  const expression = CronExpressionParser.parse(pattern.trim(), { currentDate: new Date(from), ...(tz === undefined ? {} : { tz }) });
  return Array.from({ length: count }, () => expression.next().getTime());
}
