/**
 * A fleet file's values checked by the flags' own parsers (sync, schedule add, alerts add), every
 * problem placed at the setting it came from; and the schedule request built as `schedule add` does.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetTarget } from '../../src/cli/input/fleet-target.js';
import { parseFleetText } from '../../src/fleet/fleet-yaml.js';
import { problemLine } from '../../src/fleet/fleet-problems.js';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ls-fleet-target-'));
  writeFileSync(join(dir, 'acme.csv'), 'MLSNumber,Url\nM1,https://x.example/1\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const target = (text: string, env: Record<string, string> = {}, needWebhooks = true) =>
  fleetTarget(parseFleetText(text), { fileDir: dir, env, needWebhooks });

describe('fleetTarget', () => {
  it('reports every bad value at once, each at its setting, in the settings words', async () => {
    const { problems } = await target(`sources:
  mls:
    feed: https://mls.example/odata/Property
    profile: reso
    replicate: true
    budget: 2/x
  file:
    feed: missing.csv
    sweep: true
    schedule: { cron: "0 2 * * *", tz: Mars/Olympus }
chatbots:
  a: { source: mls, maxDeletes: lots, mode: mirrorr }
alerts:
  ops: { webhookEnv: OPS_HOOK, format: teams, staleAfter: soon }
`);
    expect(problems.map((p) => problemLine('fleet.yaml', p))).toEqual([
      expect.stringMatching(/^fleet\.yaml:6:13: sources\.mls\.budget: '2\/x' is not a limit\. Give a preset/),
      expect.stringMatching(/^fleet\.yaml:8:11: sources\.file\.feed: '.*\/missing\.csv' does not exist/),
      'fleet.yaml:9:12: sources.file.sweep: needs replicate',
      "fleet.yaml:10:40: sources.file.schedule.tz: must be an IANA time zone such as America/Chicago (got 'Mars/Olympus')",
      expect.stringMatching(/^fleet\.yaml:12:33: chatbots\.a\.maxDeletes: must be a whole number of listings .* \(got 'lots'\)$/),
      "fleet.yaml:12:45: chatbots.a.mode: must be one of mirror, upsert (got 'mirrorr')",
      'fleet.yaml:14:22: alerts.ops.webhookEnv: OPS_HOOK is not set: apply stores the webhook URL it holds',
      "fleet.yaml:14:40: alerts.ops.format: must be one of json, slack (got 'teams')",
      "fleet.yaml:14:59: alerts.ops.staleAfter: must be a duration such as 90s, 10m or 2h (got 'soon')",
    ]);
  });

  it('builds the request schedule add would store, with the flags defaults, a relative feed taken from the file', async () => {
    const { target: built, problems } = await target(
      `sources:
  file: { feed: acme.csv, profile: redfin, schedule: { cron: "0 2 * * *" } }
chatbots:
  gamma: { source: file, maxDeletes: 5%, allowWipe: "SalePrice, HOAMonth" }
  beta: { source: file, where: { City: Evanston } }
alerts:
  ops: { webhookEnv: OPS_HOOK, on: failed }
`,
      { OPS_HOOK: 'https://hooks.example.com/T/B/secret' },
    );
    expect(problems).toEqual([]);
    // One schedule for the source: its occurrence pulls it once and syncs each chatbot over its where.
    expect(Object.keys(built.side.schedules)).toEqual(['fleet@file']);
    const gamma = {
      chatbot: 'gamma',
      feed: { source: join(dir, 'acme.csv'), profile: 'redfin', encoding: 'utf-8' },
      keyType: 'MLSNumber',
      mode: 'mirror',
      deleteScope: 'managed',
      maxDeletes: '5%',
      maxRejectedPercent: 5,
      pageSize: 100,
      force: false,
      maxWipes: '10%',
      allowWipe: ['SalePrice', 'HOAMonth'],
      dryRun: false,
      trigger: 'schedule',
      fleetSource: 'file',
    };
    expect(built.side.schedules['fleet@file']).toEqual({
      cron: '0 2 * * *',
      request: {
        chatbot: 'beta,gamma',
        fleetRun: {
          source: 'file',
          sweep: false,
          requests: [
            expect.objectContaining({
              chatbot: 'beta',
              fleetSource: 'file',
              feed: expect.objectContaining({ where: { City: 'Evanston' } }),
            }),
            gamma,
          ],
        },
      },
    });
    expect(built.notes).toEqual([]);
    expect(built.alertConfigs.ops).toMatchObject({
      name: 'ops',
      webhook: 'https://hooks.example.com/T/B/secret',
      format: 'json',
      on: ['failed'],
    });
  });

  it('diff without the webhook variable compares the rest and says so', async () => {
    const { target: built, problems } = await target('alerts:\n  ops: { webhookEnv: OPS_HOOK }\n', {}, false);
    expect(problems).toEqual([]);
    expect(built.side.alerts.ops).not.toHaveProperty('webhook');
    expect(built.notes).toEqual(['alert ops: OPS_HOOK is not set here, so its webhook URL is not compared']);
  });

  it('takes events: true on a replicated source into every chatbot request (--events), and places its problems', async () => {
    const { target: built, problems } = await target(`sources:
  mls: { feed: https://mls.example/odata/Property, profile: reso, replicate: true, events: true, schedule: { cron: "*/30 * * * *" } }
chatbots:
  a: { source: mls }
  b: { source: mls }
`);
    expect(problems).toEqual([]);
    const requests = (built.side.schedules['fleet@mls']?.request as { fleetRun: { requests: Array<{ replicate?: unknown }> } }).fleetRun
      .requests;
    expect(requests.map((request) => request.replicate)).toEqual([
      expect.objectContaining({ events: true }),
      expect.objectContaining({ events: true }),
    ]);

    const bad = await target(`sources:
  file:
    feed: acme.csv
    events: true
  mls:
    feed: https://mls.example/odata/Property
    profile: reso
    replicate: true
    events: yes
  swept:
    feed: https://mls.example/odata/Property
    profile: reso
    replicate: true
    events: true
    sweep: true
chatbots:
  a: { source: file }
  b: { source: mls }
  c: { source: swept }
`);
    expect(bad.problems.map((p) => problemLine('fleet.yaml', p))).toEqual([
      'fleet.yaml:4:13: sources.file.events: needs replicate',
      'fleet.yaml:9:13: sources.mls.events: takes true or false',
      'fleet.yaml:15:12: sources.swept.sweep: does nothing with events (an event run sweeps the keys when its events name removals, ' +
        'and a resync always does): drop it',
    ]);
  });
});
