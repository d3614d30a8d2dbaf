/**
 * `listing-sync sync --replicate` as processes against a RESO simulator that misbehaves as MLSs
 * do, checked the way a user would check it (exit code, the lines printed, the chatbot's
 * listings, the source's watermark) and, where the promise is about the MLS, at the MLS:
 * - two processes sharing one credential's budget never send more than it allows in any rolling
 *   window the server counts, so the server never suspends them, and both converge;
 * - photos reach the chatbot in Order whatever order the server lists them in, and a photo-only
 *   change updates the listing once (with `$expand`, and from the Media resource when refused);
 * - a sweep cut short by a server fault deletes nothing and keeps the watermark; the next one deletes;
 * - a few 429s with Retry-After are waited out quietly.
 */
import { describe, expect, it } from 'vitest';
import type { ResoMedia } from '../../src/sim/reso/server.js';
import { after, resoFixtures, type ResoFixture, type Replicated } from '../helpers/reso-fixture.js';
import { jsonOf, lines, runCli, type CliRun } from '../helpers/run-cli.js';

const start = resoFixtures();

/** The most requests that arrived within any rolling `spanMs` (the window (t − span, t] ending at each arrival, as the simulator counts). */
function mostInWindow(arrivals: readonly number[], spanMs: number): number {
  const sorted = [...arrivals].sort((a, b) => a - b);
  let most = 0;
  let first = 0;
  sorted.forEach((at, last) => {
    while ((sorted[first] ?? at) <= at - spanMs) first += 1;
    most = Math.max(most, last - first + 1);
  });
  return most;
}

/** The photo URLs of a record in Order: what the chatbot's Images must be. */
const inOrder = (media: readonly ResoMedia[]): string[] => [...media].sort((a, b) => a.Order - b.Order).map((photo) => photo.MediaURL);

/** The chatbot's Images per MLSNumber. */
function imagesOf(f: ResoFixture, chatbot: string): Map<string, string[] | undefined> {
  return new Map(f.sim.state.listings(chatbot).map((listing) => [String(listing.MLSNumber), listing.Images]));
}

interface SourceShown {
  watermark?: string;
  lastRun?: { status: string; requests: number; bytes: number };
  lastSweep?: { complete: boolean; deleted: number };
}

async function sourceOf(f: ResoFixture, chatbot: string): Promise<SourceShown> {
  const shown = await runCli(['sources', 'show', '--chatbot', chatbot, '--feed', f.reso.propertyUrl, '--json'], f.env());
  expect(shown.code, shown.stderr).toBe(0);
  return jsonOf<SourceShown>(shown);
}

/** stderr lines that are not JSON log records (what a person reads), and the log records at warn or above. */
function stderrOf(run: CliRun): { plain: string[]; warnings: string[] } {
  const plain: string[] = [];
  const warnings: string[] = [];
  for (const line of lines(run.stderr)) {
    let level: unknown;
    try {
      level = (JSON.parse(line) as { level?: unknown }).level;
    } catch {
      plain.push(line);
      continue;
    }
    if (typeof level === 'number' && level >= 40) warnings.push(line);
  }
  return { plain, warnings };
}

describe('sync --replicate against a misbehaving MLS', () => {
  it('two processes on one credential stay within its budget in every rolling second and hour at the server, and both converge', async () => {
    const [botA, botB] = ['bot-budget-a', 'bot-budget-b'];
    // 40 records in pages of 4: 10 requests per process, 20 in all, against 2/s: the budget binds
    // for several seconds while both run. The hour window (24) is just above the 20 they need.
    // Why the credential's budget is set below what the MLS enforces (3/s): the MLS (in this test's
    // process) stamps a request when its event loop gets to it, so a loaded machine's lag can bunch
    // requests sent 750 ms apart; a second process spending its own 2/s would still make 4/s there.
    const budget = { perSecond: 3, perHour: 24 };
    const f = await start({ chatbots: [botA, botB], records: 40, photos: 1, reso: { maxTop: 4, budget }, label: 'reso-budget' });
    const extra = ['--feed-budget', '2/s,24/h', '--feed-page-size', '4'];
    const [a, b] = await Promise.all([f.replicate(botA, { extra }), f.replicate(botB, { extra })]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);

    // At the MLS: never suspended, never a 429, and no rolling window over its budget.
    expect(f.reso.state.suspended()).toBeUndefined();
    const counters = f.reso.state.counters();
    // Each process reads $metadata unless the other kept it in Redis first (they start together: one or two reads).
    const metadataReads = f.reso.state.requests().filter((entry) => entry.url.startsWith('/odata/$metadata')).length;
    expect([1, 2]).toContain(metadataReads);
    expect(counters).toMatchObject({ requests: 20 + metadataReads, tooManyRequests: 0 });
    const arrivals = f.reso.state.requests().map((entry) => entry.at);
    expect(arrivals).toHaveLength(20 + metadataReads);
    expect(mostInWindow(arrivals, 1000)).toBeLessThanOrEqual(budget.perSecond);
    expect(mostInWindow(arrivals, 3_600_000)).toBeLessThanOrEqual(budget.perHour);
    expect(counters.maxPerSecond).toBeLessThanOrEqual(budget.perSecond);
    // The one budget was shared: 20 requests at 2 per second span 9 s or more; with a budget each
    // the two processes would be done in 4.5 s. 8 s leaves room for the MLS's own lag in stamping.
    expect(Math.max(...arrivals) - Math.min(...arrivals)).toBeGreaterThanOrEqual(8000);

    // Both converge: every record on each chatbot, created once.
    const expected = f
      .keys()
      .map((key) => f.listingIdOf(key))
      .sort();
    const metadataSpent = [a, b].map((run) => jsonOf<Replicated>(run).replication.requests - 10);
    expect(metadataSpent.reduce((sum, spent) => sum + spent, 0)).toBe(metadataReads);
    for (const [bot, run] of [
      [botA, a],
      [botB, b],
    ] as const) {
      expect(jsonOf<Replicated>(run).replication).toMatchObject({ status: 'done', recordsPulled: 40 });
      expect(f.mlsNumbers(bot)).toEqual(expected);
      expect(f.sim.state.duplicateCreates(bot)).toEqual([]);
    }
  });

  it.each([
    { media: 'expand', expandMedia: true },
    { media: 'the Media resource ($expand refused)', expandMedia: false },
  ])(
    'puts photos on the chatbot in Order, and a photo-only change updates the listing once (photos by $media)',
    async ({ expandMedia }) => {
      const bot = 'bot-media';
      const f = await start({ chatbots: [bot], records: 6, photos: 5, reso: { maxTop: 10, expandMedia }, label: 'reso-media' });
      const { reso, sim } = f;
      const records = reso.state.records.list();
      // The server lists photos out of Order (the simulator shuffles them): the test means something.
      expect(records.some(({ media }) => media.some((photo, i) => photo.Order !== i + 1))).toBe(true);

      const first = await f.replicate(bot);
      expect(first.code, first.stderr).toBe(0);
      const firstOut = jsonOf<Replicated>(first);
      expect(firstOut.plan).toMatchObject({ create: 6, update: 0, delete: 0 });
      const images = imagesOf(f, bot);
      for (const { property, media } of records) expect(images.get(property.ListingId), property.ListingKey).toEqual(inOrder(media));
      if (!expandMedia) {
        expect(reso.state.counters()).toMatchObject({ badRequests: 1 });
        expect(reso.state.counters().mediaServed).toBe(30);
      }

      // Photo-only changes, stamped as an MLS stamps them (PhotosChangeTimestamp and ModificationTimestamp
      // move): one listing's photos reordered, another's with one photo added in second place.
      const [reordered, added] = [records[1], records[4]];
      if (reordered === undefined || added === undefined) throw new Error('seeded fewer records than asked');
      const reorderedUrls = inOrder(reordered.media).reverse();
      const [firstUrl = '', ...rest] = inOrder(added.media);
      const addedUrls = [firstUrl, `https://photos.reso-sim.test/${added.property.ListingKey}/new-kitchen.jpg`, ...rest];
      const stamp = after(firstOut.replication.watermark ?? '', 5);
      reso.state.records.setMedia({ keys: [reordered.property.ListingKey], urls: reorderedUrls, timestamp: stamp });
      reso.state.records.setMedia({ keys: [added.property.ListingKey], urls: addedUrls, timestamp: after(stamp, 1) });
      const untouched = sim.state
        .listings(bot)
        .filter((listing) => ![reordered, added].some((r) => r.property.ListingId === listing.MLSNumber));
      sim.state.resetCounters();

      const second = await f.replicate(bot);
      expect(second.code, second.stderr).toBe(0);
      const secondOut = jsonOf<Replicated>(second);
      expect(secondOut.plan).toMatchObject({ create: 0, update: 2, delete: 0 });
      // The 2 changed records and the one stamped at the old watermark (`ge`), unchanged.
      expect(secondOut.replication).toMatchObject({ status: 'done', recordsPulled: 3, watermark: after(stamp, 1) });
      expect(sim.state.callCounts()).toMatchObject({ updateListing: 2, createListing: 0, deleteListings: 0 });
      const changed = imagesOf(f, bot);
      expect(changed.get(reordered.property.ListingId)).toEqual(reorderedUrls);
      expect(changed.get(added.property.ListingId)).toEqual(addedUrls);
      expect(sim.state.listings(bot).filter((listing) => untouched.some((u) => u.ID === listing.ID))).toEqual(untouched);
    },
  );

  it.each([
    { fault: '503s beyond the retries', statuses: [200, 503, 503, 503, 503, 503], says: /failed 5 times in a row \(last: HTTP 503\)/ },
    { fault: '429s until the halt', statuses: [200, 200, 429, 429, 429], says: /answered 429 \(too many requests\) 3 times in a row/ },
  ])(
    'deletes nothing when the key sweep is cut short by $fault, keeps the watermark, and the next sweep deletes exactly the vanished listing',
    async ({ statuses, says }) => {
      const bot = 'bot-sweep-fault';
      const f = await start({ chatbots: [bot], records: 25, photos: 1, reso: { maxTop: 10 }, label: 'reso-sweep' });
      const { reso, sim } = f;
      const first = await f.replicate(bot);
      expect(first.code, first.stderr).toBe(0);
      const watermark = jsonOf<Replicated>(first).replication.watermark ?? '';

      const [goneKey = '', changedKey = ''] = [f.keys()[3], f.keys()[17]];
      const goneId = f.listingIdOf(goneKey);
      reso.state.records.remove({ keys: [goneKey] });
      reso.state.records.modify({ keys: [changedKey], timestamp: after(watermark, 5) });
      // The sweep's first page (or two) is served, then the server fails: retryAfterSeconds 0 keeps the waits short.
      reso.state.configure({ faults: { retryAfterSeconds: 0, nextStatuses: statuses } });
      sim.state.resetCounters();
      const requestsBefore = reso.state.counters().requests;

      const cut = await f.replicate(bot, { extra: ['--sweep'], env: { LOG_LEVEL: 'warn' } });
      expect(cut.code).toBe(1);
      expect(cut.stdout).toBe('');
      const { plain } = stderrOf(cut);
      expect(plain, cut.stderr).toHaveLength(1);
      expect(plain[0]).toMatch(/^listing-sync: Feed /);
      expect(plain[0]).toMatch(says);
      expect(cut.stderr).not.toMatch(/^\s+at /m);
      // Nothing deleted (nor anything else sent), and the watermark did not move.
      expect(sim.state.callCounts()).toMatchObject({ createListing: 0, updateListing: 0, deleteListings: 0 });
      expect(f.mlsNumbers(bot)).toContain(goneId);
      expect(sim.state.listings(bot)).toHaveLength(25);
      // The failed run is recorded with what its sweep spent against the budget, and no delete.
      const failed = await sourceOf(f, bot);
      expect(failed).toMatchObject({ watermark, lastRun: { status: 'failed' }, lastSweep: { complete: false, deleted: 0 } });
      expect(failed.lastRun?.requests).toBe(reso.state.counters().requests - requestsBefore);
      expect(failed.lastRun?.bytes).toBeGreaterThan(0);

      reso.state.configure({ faults: {} });
      const swept = await f.replicate(bot, { extra: ['--sweep'] });
      expect(swept.code, swept.stderr).toBe(0);
      expect(jsonOf<Replicated>(swept)).toMatchObject({
        plan: { create: 0, update: 1, delete: 1 },
        replication: { status: 'done', sweep: { complete: true, deleted: 1 }, watermark: after(watermark, 5) },
      });
      const expected = f
        .keys()
        .map((key) => f.listingIdOf(key))
        .sort();
      expect(f.mlsNumbers(bot)).toEqual(expected);
      expect(f.mlsNumbers(bot)).not.toContain(goneId);
      expect(sim.state.duplicateCreates(bot)).toEqual([]);
    },
  );

  it('waits out a few 429s as Retry-After asks, then completes: exit 0, everything applied, no warning on stderr', async () => {
    const bot = 'bot-retry-after';
    const f = await start({ chatbots: [bot], records: 25, photos: 1, reso: { maxTop: 10 }, label: 'reso-429' });
    const { reso, sim } = f;
    // Two 429s in a row, an answer, one more 429: fewer in a row than the 3 that halt a run. The
    // first run's first request is its $metadata read: it gets the two 429s, then its document;
    // the next 429 meets the first Property page.
    reso.state.configure({ faults: { retryAfterSeconds: 1, nextStatuses: [429, 429, 200, 429] } });
    const run = await f.replicate(bot, { env: { LOG_LEVEL: '' } });
    expect(run.code, run.stderr).toBe(0);
    // 3 $metadata requests, 1 refused Property page, 3 pages of 10.
    expect(jsonOf<Replicated>(run).replication).toMatchObject({ status: 'done', recordsPulled: 25, requests: 7 });
    expect(f.mlsNumbers(bot)).toHaveLength(25);
    expect(sim.state.duplicateCreates(bot)).toEqual([]);
    expect(reso.state.counters()).toMatchObject({ tooManyRequests: 3, requests: 7 });
    expect(reso.state.requests().map((entry) => [entry.url.slice(0, 15), entry.status])).toEqual([
      ['/odata/$metadat', 429],
      ['/odata/$metadat', 429],
      ['/odata/$metadat', 200],
      ['/odata/Property', 429],
      ['/odata/Property', 200],
      ['/odata/Property', 200],
      ['/odata/Property', 200],
    ]);
    // Retry-After was honoured: each request after a 429 came a second or more later.
    const log = reso.state.requests();
    log.forEach((entry, i) => {
      const next = log[i + 1];
      if (entry.status === 429 && next !== undefined) expect(next.at - entry.at).toBeGreaterThanOrEqual(1000);
    });
    const { plain, warnings } = stderrOf(run);
    expect(warnings).toEqual([]);
    expect(plain).toEqual([]);
  });
});
