/** The fleet page's and /metrics' view of the applied fleet (src/dashboard/fleet-data.ts reads it). */

/** A chatbot of the applied fleet and its source: what /metrics reads on each scrape (one Redis read). */
export interface FleetMemberView {
  chatbot: string;
  source: string;
}

/** One chatbot of the applied fleet as the fleet page shows it. Times are epoch milliseconds. */
export interface FleetChatbotView {
  chatbot: string;
  source: string;
  /** The source's feed without credentials (a URL's user, password, query and fragment removed). */
  feed: string;
  /** The filter in words; absent: every record of the source. */
  filter?: string;
  /** The installed schedule that syncs the chatbot. */
  schedule?: { cron: string; tz?: string; next?: number };
  /** The schedule the source declares, when none is installed for the chatbot. */
  declared?: { cron: string; tz?: string };
  /** The chatbot's health status (as on the health page) and its newest run. */
  health: string;
  lastRun?: { runId: string; status: string; startedAt: number; finishedAt?: number };
}
