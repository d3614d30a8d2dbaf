/**
 * The applied fleet in the lists and on /metrics, through the built CLI and the built dashboard
 * over a real Redis: `runs list` names each run's source (text and --json), `schedule list` names
 * a fleet schedule's source and chatbots, and /metrics counts each source's chatbots and carries a
 * `source` label on each fleet chatbot's newest run. A chatbot outside the fleet shows no source.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DASHBOARD_PASSWORD, DASHBOARD_USER, startDashboardProcess } from '../helpers/dashboard-process.js';
import { installFleet, type FleetInstallation } from '../helpers/fleet-display.js';
import { jsonOf, lines, runCli } from '../helpers/run-cli.js';

const redisUrl = inject('redisUrl');
let installation: FleetInstallation | undefined;
let passed = true;

beforeAll(async () => {
  installation = await installFleet(redisUrl, 'fleet-display');
}, 240_000);
afterAll(async () => {
  await installation?.close(passed);
});

const cli = async (...args: string[]) => {
  if (installation === undefined) throw new Error('no installation');
  const run = await runCli(args, installation.env);
  if (run.code !== 0) passed = false;
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toBe('');
  return run;
};

describe('the fleet in the lists', () => {
  it('runs list shows the source column: the fleet chatbot its source, the other chatbot none', async () => {
    const { gammaRun, soloRun } = installation ?? { gammaRun: '', soloRun: '' };
    const text = lines((await cli('runs', 'list')).stdout);
    expect(text[0]).toMatch(/^RUN +CHATBOT +SOURCE +STATUS +TRIGGER +STARTED \(UTC\) +CREATED +UPDATED +DELETED +FAILED +JOBS$/);
    expect(text.find((line) => line.startsWith(gammaRun))).toMatch(new RegExp(`^${gammaRun} +gamma-bot +acme-file +done `));
    expect(text.find((line) => line.startsWith(soloRun))).toMatch(new RegExp(`^${soloRun} +solo-bot +- +done `));
    const json = jsonOf<{ runs: Array<{ id: string; chatbot: string; source: string | null }> }>(await cli('runs', 'list', '--json'));
    expect(json.runs.map(({ id, chatbot, source }) => ({ id, chatbot, source }))).toEqual(
      expect.arrayContaining([
        { id: gammaRun, chatbot: 'gamma-bot', source: 'acme-file' },
        { id: soloRun, chatbot: 'solo-bot', source: null },
      ]),
    );
    const solo = jsonOf<{ runs: Array<{ source: string | null }> }>(await cli('runs', 'list', '--chatbot', 'solo-bot', '--json'));
    expect(solo.runs).toEqual([expect.objectContaining({ source: null })]);
    // Without a run from a source, the list reads as it did before fleets.
    expect(lines((await cli('runs', 'list', '--chatbot', 'solo-bot')).stdout)).toEqual([
      expect.stringMatching(/^RUN +CHATBOT +STATUS +TRIGGER +STARTED \(UTC\) +CREATED/),
      expect.stringMatching(new RegExp(`^${soloRun} +solo-bot +done `)),
      `see one run: listing-sync runs show ${soloRun}`,
    ]);
  });

  it("schedule list names a fleet schedule's source and the chatbots on it", async () => {
    const text = lines((await cli('schedule', 'list')).stdout);
    // A fleet source's one schedule (`fleet@SOURCE`) runs its fan-out to every chatbot on it.
    expect(text.find((line) => line.startsWith('fleet@acme-file '))).toMatch(
      /^fleet@acme-file {2}0 2 \* \* \* America\/New_York {2}chatbot gamma-bot {2}source acme-file \(gamma-bot\) {2}next /,
    );
    const json = jsonOf<{ schedules: Array<{ name: string; fleet?: { source: string; chatbots: string[] } }> }>(
      await cli('schedule', 'list', '--json'),
    );
    expect(json.schedules.find((s) => s.name === 'fleet@acme-file')?.fleet).toEqual({ source: 'acme-file', chatbots: ['gamma-bot'] });
    // Every fleet schedule (a chatbot's own, or one of a whole source) names a declared source.
    for (const schedule of json.schedules) expect(['acme-file', 'mred']).toContain(schedule.fleet?.source);
  });

  it('/metrics counts each source’s chatbots and labels each fleet chatbot’s newest run with its source', async () => {
    if (installation === undefined) throw new Error('no installation');
    const dashboard = await startDashboardProcess(redisUrl, installation.prefix);
    try {
      const response = await fetch(`${dashboard.url}/metrics`, {
        headers: { authorization: `Basic ${Buffer.from(`${DASHBOARD_USER}:${DASHBOARD_PASSWORD}`).toString('base64')}` },
      });
      expect(response.status).toBe(200);
      const body = lines(await response.text());
      expect(body).toEqual(
        expect.arrayContaining([
          '# HELP listing_sync_fleet_chatbots Chatbots of the applied fleet on each source (fleet apply)',
          '# TYPE listing_sync_fleet_chatbots gauge',
          'listing_sync_fleet_chatbots{source="acme-file"} 1',
          'listing_sync_fleet_chatbots{source="mred"} 2',
          expect.stringMatching(
            /^listing_sync_fleet_last_run_timestamp_seconds\{chatbot="gamma-bot",source="acme-file",status="done"\} \d+(\.\d+)?$/,
          ),
        ]),
      );
      // One series per fleet chatbot with a run: acme-bot and beta-bot have none yet; solo-bot is not in the fleet.
      expect(body.filter((line) => line.startsWith('listing_sync_fleet_last_run_timestamp_seconds{'))).toHaveLength(1);
    } finally {
      await dashboard.stop();
    }
  });
});
