/**
 * What the dashboard's pages say, without a browser: a run summary's figures as labelled words,
 * chart x labels that tell every run apart, and a small non-zero segment drawn tall enough to see.
 */
import { describe, expect, it } from 'vitest';
import { MIN_SEGMENT_HEIGHT, stackedBarChart } from '../../src/dashboard/charts/stacked-bars.js';
import { distinctTimeLabels } from '../../src/dashboard/pages/chatbot.js';
import { feedFigures, formatBytes, labelOf, remoteFigures, replicationCard, words } from '../../src/dashboard/pages/run-figures.js';

describe('run figures in words', () => {
  it('labels the feed and remote figures, says counts per field, and leaves out what is empty', () => {
    const feed = feedFigures({ source: 'x.csv', rows: 1200, filledDefaults: { LotArea: 252, YearBuilt: 3 }, duplicates: 0 }).value;
    expect(feed).toContain('<dt>Rows read</dt><dd data-field="rows">1,200</dd>');
    expect(feed).toContain('<dt>Defaults filled</dt><dd data-field="filledDefaults">LotArea 252 listings, YearBuilt 3 listings</dd>');
    expect(feed).toContain('<dt>Duplicate keys</dt><dd data-field="duplicates">0</dd>');
    const remote = remoteFigures({ listings: 7, virtualCount: 7, complete: true, incompleteReasons: [], unkeyed: 0 }).value;
    expect(remote).toContain('<dt>Read completely</dt><dd data-field="complete">yes</dd>');
    expect(remote).not.toContain('incompleteReasons');
    expect(remote).not.toContain('Why incomplete');
    const incomplete = remoteFigures({ complete: false, incompleteReasons: ['page 3 failed', 'count changed'] }).value;
    expect(incomplete).toContain('<dt>Why incomplete</dt><dd data-field="incompleteReasons">page 3 failed; count changed</dd>');
    expect(feedFigures({}).value).toContain('Not recorded.');
  });

  it('shows a replication run with its records, requests, bytes, watermark and sweep, and nothing for other runs', () => {
    const card = replicationCard({
      status: 'done',
      recordsPulled: 25,
      requests: 6,
      bytes: 48_213,
      watermark: '2026-11-27T10:00:00.000Z',
      sweep: { complete: true, deleted: 1 },
    }).value;
    expect(card).toContain('<dt>Records pulled</dt><dd data-field="recordsPulled">25</dd>');
    expect(card).toContain('<dt>Requests</dt><dd data-field="requests">6</dd>');
    expect(card).toContain('<dt>Data received</dt><dd data-field="bytes">47.1 KiB (48,213 bytes)</dd>');
    expect(card).toContain('<dt>Watermark now</dt><dd data-field="watermark">2026-11-27T10:00:00.000Z</dd>');
    expect(card).toContain('<dt>Key sweep</dt><dd data-field="sweep">complete, 1 deleted as gone</dd>');
    expect(replicationCard(undefined).value).toBe('');
  });

  it('says any other value in words: unknown keys split at capitals, nested records flattened, never JSON', () => {
    expect(labelOf('virtualCount')).toBe('Virtual count');
    expect(words({ deletes: 3, lines: [4, 9], why: 'broken keys' })).toBe('deletes 3, lines 4; 9, why broken keys');
    expect(words([])).toBe('');
    expect(words(false)).toBe('no');
    expect(formatBytes(512)).toBe('512 bytes');
  });
});

describe('charts', () => {
  it('labels runs started in one minute with their seconds, and equal starts apart', () => {
    const minute = Date.UTC(2026, 10, 27, 17, 40, 0);
    expect(distinctTimeLabels([minute, minute + 3_600_000])).toEqual(['11-27 17:40', '11-27 18:40']);
    expect(distinctTimeLabels([minute + 5_000, minute + 41_000])).toEqual(['11-27 17:40:05', '11-27 17:40:41']);
    expect(distinctTimeLabels([minute + 5_000, minute + 5_250])).toEqual(['11-27 17:40:05.000', '11-27 17:40:05.250']);
    expect(distinctTimeLabels([minute, minute])).toEqual(['11-27 17:40', '11-27 17:40 #2']);
  });

  it('draws a 12-failure segment beside a 500-create bar at least the minimum height, and scales to its panel', () => {
    const svg = stackedBarChart({
      id: 'c',
      title: 'runs',
      series: [
        { key: 'created', label: 'created', color: '#0a0' },
        { key: 'failed', label: 'failed', color: '#a00' },
      ],
      bars: [
        { id: 'big', label: 'a', values: { created: 5000 } },
        { id: 'small', label: 'b', values: { failed: 12 } },
      ],
    }).value;
    const height = Number(/data-series="failed" data-value="12"[^>]* height="([\d.]+)"/.exec(svg)?.[1]);
    expect(height).toBeGreaterThanOrEqual(MIN_SEGMENT_HEIGHT);
    expect(svg).toMatch(/<svg id="c" class="plot" [^>]*viewBox="0 0 \d+ \d+"/);
    expect(svg).not.toMatch(/<svg id="c"[^>]* width="/);
  });
});
