/** The display policy's lines of a run's text summary (the --json form is the summary's `display`). */
import { displayReportLines } from '../domain/display-policy/display-report.js';
import { showSample } from '../domain/field-changes.js';
import type { DisplaySummary } from '../store/display-summary.js';
import { plural } from '../shared/counts.js';

const listings = (held: number): string => plural(held, 'listing');

/** "display" lines: what was not published, withheld, blanked on held listings, and the rules to come; none when nothing. */
export function displayLines(display: DisplaySummary | undefined): string[] {
  if (display === undefined) return [];
  const lines = [
    ...displayReportLines(display),
    ...display.blanked.map(
      (blank) =>
        `blanked ${blank.field} on ${listings(blank.count)} the chatbot holds (the records' display flags: not a wipe), ` +
        `e.g. ${blank.samples.map(showSample).join('; ')}`,
    ),
    ...(display.attributed > 0 && display.unattributed === 0 ? [`attribution on ${listings(display.attributed)}`] : []),
    ...(display.coming ?? []).map((rule) => `coming ${rule}`),
  ];
  return lines.map((line, index) => `${index === 0 ? 'display '.padEnd(8) : ' '.repeat(8)}${line}`);
}
