/** fleet.yaml read into a Fleet: every problem at once, each at its line and column. */
import { describe, expect, it } from 'vitest';
import { parseFleetText } from '../../src/fleet/fleet-yaml.js';
import { problemLine } from '../../src/fleet/fleet-problems.js';

const GOOD = `sources:
  mred:
    feed: https://mls.example/odata/Property
    profile: reso
    replicate: true
    budget: mls-grid
    schedule: { cron: "*/30 * * * *", tz: America/Chicago }
chatbots:
  acme-bot:
    source: mred
    where: { ListOfficeMlsId: [ACME1, ACME2] }
  gamma-bot:
    source: mred
    maxDeletes: 5
    allowWipe: SalePrice, HOAMonth
alerts:
  ops: { webhookEnv: OPS_WEBHOOK_URL, format: slack, on: [refused, failed] }
`;

describe('parseFleetText', () => {
  it('reads a good file into the canonical fleet (settings as the flags take them)', () => {
    const parsed = parseFleetText(GOOD);
    expect(parsed.problems).toEqual([]);
    expect(parsed.fleet).toEqual({
      sources: {
        mred: {
          feed: 'https://mls.example/odata/Property',
          profile: 'reso',
          replicate: true,
          budget: 'mls-grid',
          schedule: { cron: '*/30 * * * *', tz: 'America/Chicago' },
        },
      },
      chatbots: {
        'acme-bot': { source: 'mred', where: { ListOfficeMlsId: ['ACME1', 'ACME2'] } },
        'gamma-bot': { source: 'mred', maxDeletes: '5', allowWipe: ['SalePrice', 'HOAMonth'] },
      },
      alerts: { ops: { webhookEnv: 'OPS_WEBHOOK_URL', format: 'slack', on: ['refused', 'failed'] } },
    });
  });

  it('reports an unknown section, setting and source name, and a bad where, each at its line and column', () => {
    const text = `sources:
  mred: { feed: /feeds/x.csv, shedule: { cron: "0 2 * * *" } }
chatbots:
  acme-bot:
    source: mrd
    maxDelete: 5%
    where: { ListPrice: { from: 1 } }
alert: {}
`;
    const lines = parseFleetText(text).problems.map((p) => problemLine('fleet.yaml', p));
    expect(lines).toEqual([
      expect.stringMatching(/^fleet\.yaml:2:31: sources\.mred\.shedule: unknown source setting 'shedule' \(did you mean schedule\?\)/),
      "fleet.yaml:5:13: chatbots.acme-bot.source: unknown source 'mrd' (did you mean mred?); the sources are mred",
      expect.stringMatching(
        /^fleet\.yaml:6:5: chatbots\.acme-bot\.maxDelete: unknown chatbot setting 'maxDelete' \(did you mean maxDeletes\?\)/,
      ),
      "fleet.yaml:7:27: chatbots.acme-bot.where.ListPrice.from: unknown operator 'from'; a range takes gte, lte, gt, lt",
      expect.stringMatching(/^fleet\.yaml:8:1: alert: unknown section 'alert' \(did you mean alerts\?\)/),
    ]);
  });

  it('reports every YAML syntax error with its line and column, and nothing else', () => {
    const { problems } = parseFleetText('sources:\n  mred: { feed: x\nchatbots:\n  a: [\n');
    expect(problems.length).toBeGreaterThanOrEqual(2);
    expect(problems[0]).toMatchObject({ line: 3, col: 1, path: '' });
    expect(problems.every((p) => p.message.startsWith('YAML syntax: '))).toBe(true);
    expect(parseFleetText('a: 1\na: 2\n').problems[0]?.message).toMatch(/YAML syntax: Map keys must be unique/);
  });

  it('keeps a webhook URL out of the file: webhookEnv names a variable', () => {
    const { problems } = parseFleetText(
      'alerts:\n  ops: { webhookEnv: "https://hooks.example.com/T/B/x" }\n  dev: { webhook: x, webhookEnv: DEV_HOOK }\n',
    );
    expect(problems.map((p) => [p.line, p.col, p.path, p.message])).toEqual([
      [2, 22, 'alerts.ops.webhookEnv', 'takes the name of an env variable (e.g. OPS_WEBHOOK_URL), never the URL itself: it is a secret'],
      [3, 10, 'alerts.dev.webhook', expect.stringMatching(/the webhook URL is a secret and never goes in the file/)],
    ]);
  });

  it('an empty file is an empty fleet; a source needs a feed and a chatbot a source', () => {
    expect(parseFleetText('').problems).toEqual([]);
    const { problems } = parseFleetText('sources:\n  a: { profile: reso }\nchatbots:\n  b: { maxDeletes: 5 }\n');
    expect(problems.map((p) => `${p.line}:${p.col} ${p.message}`)).toEqual([
      '2:6 needs feed: a file path or an http(s) URL',
      '4:6 needs source: the name of one of the sources',
    ]);
  });
});
