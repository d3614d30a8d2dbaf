/**
 * Examples shown at the end of each command's `--help`, kept in one table so that a test can run
 * every one through the command tree (each must name a real command and real flags).
 */

export interface HelpExample {
  /** What the example does, said first as a shell comment. */
  what: string;
  /** The command line, starting with `listing-sync`. */
  line: string;
}

const ex = (what: string, line: string): HelpExample => ({ what, line: `listing-sync ${line}` });

/** Examples by command path ('sync', 'runs show'). */
export const HELP_EXAMPLES: Readonly<Record<string, readonly HelpExample[]>> = {
  sim: [
    ex('a chatbot holding 3 listings; prints the export lines that point the CLI at it', 'sim --chatbot bot-demo --seed-listings 3'),
    ex('a service that fails 1 request in 10, the same way every time', 'sim --fault-503 0.1 --seed 7'),
  ],
  'chatbot edit': [
    ex("one chatbot's settings", 'chatbot edit --chatbot acme-bot --set "ChatBubbleColor=rgb(0,90,160)"'),
    ex('many chatbots from a JSON array, worked here', 'chatbot edit --many settings.json --work'),
  ],
  'chatbot knowledge': [ex("a chatbot's knowledge base", 'chatbot knowledge --chatbot acme-bot --file knowledge.json')],
  'listings list': [
    ex('the first page', 'listings list --chatbot acme-bot'),
    ex('every listing, checked against VirtualCount', 'listings list --chatbot acme-bot --all --json'),
  ],
  'listings create': [ex('one listing from a file', 'listings create --chatbot acme-bot --file listing.json')],
  'listings update': [ex('by MLS number', 'listings update --chatbot acme-bot --key ML100001 --key-type MLSNumber --file listing.json')],
  'listings delete': [ex('by MLS number', 'listings delete --chatbot acme-bot --key-type MLSNumber ML100001 ML100002')],
  tables: [ex("a project's data tables", 'tables --random-code sim-project-0001')],
  sync: [
    ex(
      'look first: the plan, nothing sent (exit 3 if the guard would refuse)',
      'sync --chatbot acme-bot --feed /feeds/acme.csv --profile redfin --dry-run --report /tmp/plan.csv',
    ),
    ex('sync and work the jobs in this process', 'sync --chatbot acme-bot --feed /feeds/acme.csv --profile redfin --work'),
    ex(
      'replicate from an MLS (RESO Web API) within its request budget',
      'sync --chatbot acme-bot --feed https://mls.example/odata/Property --profile reso --replicate --feed-budget mls-grid ' +
        '--media-store file:///srv/photos --media-base-url https://photos.example.com --work',
    ),
  ],
  worker: [ex('work queued jobs, 8 requests in flight', 'worker --concurrency 8')],
  'runs list': [ex("one chatbot's runs", 'runs list --chatbot acme-bot')],
  'runs show': [ex('what a run did', 'runs show RUN_ID')],
  'runs cancel': [ex('stop a run and free its chatbot', 'runs cancel RUN_ID')],
  'runs resume': [ex('finish an interrupted run here', 'runs resume RUN_ID --work')],
  'jobs failed': [ex("a run's failed jobs with their reasons", 'jobs failed --run RUN_ID')],
  'jobs retry': [ex("re-queue a run's failed jobs", 'jobs retry --run RUN_ID')],
  'jobs find': [ex('the jobs of one listing', 'jobs find ML100001')],
  'jobs resume': [ex('resume a queue paused by a rejected key (after fixing it)', 'jobs resume')],
  'schedule add': [
    ex(
      'nightly at 2 a.m. Chicago time',
      'schedule add acme-nightly --cron "0 2 * * *" --tz America/Chicago --chatbot acme-bot --feed /feeds/acme.csv --profile redfin',
    ),
  ],
  'schedule list': [ex('every schedule and its next runs', 'schedule list')],
  'schedule remove': [ex('stop a schedule', 'schedule remove acme-nightly')],
  'alerts add': [
    ex(
      'post to Slack when a sync is refused or fails',
      'alerts add ops-slack --webhook https://hooks.slack.com/services/T000/B000/XXXX --format slack --on refused,failed',
    ),
  ],
  'alerts list': [ex('every webhook (URLs masked)', 'alerts list')],
  'alerts remove': [ex('stop posting to a webhook', 'alerts remove ops-slack')],
  'alerts test': [ex('post a sample now', 'alerts test ops-slack')],
  'fleet diff': [
    ex('what applying the file would add, change or remove', 'fleet diff fleet.yaml'),
    ex('the same, with what --prune would remove, as JSON', 'fleet diff fleet.yaml --prune --json'),
  ],
  'fleet apply': [
    ex('make schedules and alerts match the file', 'fleet apply fleet.yaml'),
    ex('also remove what the file no longer names (never a listing)', 'fleet apply fleet.yaml --prune'),
  ],
  'fleet show': [ex('the applied fleet as a file, to keep under version control', 'fleet show > fleet.yaml')],
  'fleet run': [
    ex('pull the source once, sync every chatbot on it and wait for their jobs', 'fleet run mred --work'),
    ex('what each chatbot would get, as JSON (nothing sent)', 'fleet run mred --dry-run --json'),
  ],
  'sources list': [ex('every replicated feed: watermark, last run, requests', 'sources list')],
  'sources show': [
    ex(
      "one feed, with its budget's usage",
      'sources show --chatbot acme-bot --feed https://mls.example/odata/Property --feed-budget mls-grid',
    ),
  ],
  'media gc': [
    ex('what would go: photos no listing shows, unreferenced 7 days', 'media gc --media-store file:///srv/photos --dry-run'),
    ex('remove them', 'media gc --media-store file:///srv/photos'),
  ],
  dashboard: [
    ex('the ops dashboard on port 8080', 'dashboard --port 8080'),
    ex('the dashboard with a worker in it: its retries run without a `worker`', 'dashboard --port 8080 --work'),
  ],
  demo: [ex('the demo, ending after the summaries', 'demo --exit-after-sync')],
  doctor: [
    ex("Redis's memory, persistence and eviction", 'doctor'),
    ex('every setting, each API key, Redis: ready to run?', 'doctor --connect'),
  ],
};

/** Breaks `line` at spaces into lines of at most `width`, continued with ` \` and indented. */
function wrapCommand(line: string, width: number, indent: string): string[] {
  const out: string[] = [];
  let current = '';
  // A flag and its value stay on one line.
  const words = line.split(' ').reduce<string[]>((units, word) => {
    const last = units.at(-1);
    if (last !== undefined && /^--[\w-]+$/.test(last) && !word.startsWith('-')) units[units.length - 1] = `${last} ${word}`;
    else units.push(word);
    return units;
  }, []);
  for (const word of words) {
    const lead = out.length === 0 ? '' : indent;
    if (current !== '' && `${lead}${current} ${word} \\`.length > width) {
      out.push(`${lead}${current} \\`);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  out.push(`${out.length === 0 ? '' : indent}${current}`);
  return out;
}

/** Breaks a comment into `# …` lines of at most `width`. */
function wrapComment(text: string, width: number): string[] {
  const out: string[] = [];
  let current = '#';
  for (const word of text.split(' ')) {
    if (current !== '#' && `${current} ${word}`.length > width) {
      out.push(current);
      current = `# ${word}`;
    } else current = `${current} ${word}`;
  }
  out.push(current);
  return out;
}

/** The "Examples:" block of one command, every line at most `width` wide (long words excepted). */
export function examplesText(examples: readonly HelpExample[], width: number): string {
  const inner = Math.max(40, width - 2);
  const lines = examples.flatMap(({ what, line }) => [...wrapComment(what, inner), ...wrapCommand(line, inner, '    ')]);
  return `\nExamples:\n${lines.map((line) => `  ${line}`).join('\n')}\n`;
}
