/**
 * What the display rules did to one run's feed, as the dry run, the summary, `--json` and the
 * dashboard report it: per field, how many listings had it withheld and why (which rule); how
 * many records were not published and why; how many listings carry their attribution.
 */

export interface DisplayReport {
  /** Field (as the source or the write shape names it) → why (the rule) → listings. */
  withheld: Record<string, Record<string, number>>;
  /** Why (a NOT_PUBLISHED category) → records not published. */
  notPublished: Record<string, number>;
  /** Published listings carrying the attribution. */
  attributed: number;
  /** Published listings without it (a field the template names was missing and it is not required). */
  unattributed: number;
  /** The policy's maxStaleHours in force, when it sets one (the health page's stale limit for the chatbot). */
  maxStaleHours?: number;
}

export function emptyDisplayReport(): DisplayReport {
  return { withheld: {}, notPublished: {}, attributed: 0, unattributed: 0 };
}

/** Whether the rules did anything to a feed: withheld, hid or attributed a listing, or set a stale limit. */
export function displayActed(report: DisplayReport): boolean {
  return (
    report.attributed > 0 ||
    report.maxStaleHours !== undefined ||
    Object.keys(report.withheld).length > 0 ||
    Object.keys(report.notPublished).length > 0
  );
}

export function countWithheld(report: DisplayReport, field: string, why: string): void {
  const byWhy = (report.withheld[field] ??= {});
  byWhy[why] = (byWhy[why] ?? 0) + 1;
}

export function countNotPublished(report: DisplayReport, reason: string): void {
  report.notPublished[reason] = (report.notPublished[reason] ?? 0) + 1;
}

const listings = (count: number): string => `${count} ${count === 1 ? 'listing' : 'listings'}`;

/** The report as lines for people ("withheld PrivateRemarks on 3 listings (restricted from public view)"); none when nothing happened. */
export function displayReportLines(report: DisplayReport): string[] {
  const lines: string[] = [];
  for (const [reason, count] of Object.entries(report.notPublished)) lines.push(`not published: ${listings(count)} (${reason})`);
  for (const [field, byWhy] of Object.entries(report.withheld))
    for (const [why, count] of Object.entries(byWhy)) lines.push(`withheld ${field} on ${listings(count)} (${why})`);
  if (report.unattributed > 0)
    lines.push(`attribution: ${report.attributed} attributed, ${report.unattributed} without (a field it names is missing)`);
  return lines;
}
