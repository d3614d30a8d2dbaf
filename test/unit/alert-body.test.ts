/**
 * Alert bodies: the json contract fields, and the Slack message checked against Block Kit's
 * structure and limits (https://api.slack.com/reference/block-kit/blocks): at most 50 blocks;
 * header text plain_text ≤150; section text ≤3000 and at most 10 fields of ≤2000; button text
 * plain_text ≤75 and url ≤3000; action_id ≤255; text objects typed plain_text or mrkdwn.
 */
import { describe, expect, it } from 'vitest';
import { alertBody, jsonBody, slackBody, type AlertMessage } from '../../src/domain/health/alert-body.js';
import { maskWebhookUrl, webhookUrlProblem } from '../../src/domain/health/webhook-url.js';

const message: AlertMessage = {
  status: 'refused',
  previousStatus: 'healthy',
  chatbot: 'bot-<demo>&co',
  runId: 'run-00test0001-abcd',
  startedAt: '2026-01-10T02:00:00.000Z',
  counts: { created: 1, updated: 2, deleted: 3, failed: 4, rejected: 5 },
  reasons: ['would delete 6 of 9 listings (67%), more than --max-deletes 10%: pass --force', 'two', 'three', 'four', 'x'.repeat(5000)],
};

type Json = Record<string, unknown>;

function expectTextObject(value: unknown, max: number, only?: 'plain_text'): void {
  const text = value as Json;
  expect(['plain_text', 'mrkdwn']).toContain(text.type);
  if (only) expect(text.type).toBe(only);
  expect(typeof text.text).toBe('string');
  expect((text.text as string).length).toBeGreaterThan(0);
  expect((text.text as string).length).toBeLessThanOrEqual(max);
}

/** The checks Slack applies to a message's blocks (the parts this tool uses). */
function expectValidSlackMessage(body: unknown): void {
  const { text, blocks } = body as { text: unknown; blocks: Json[] };
  expect(typeof text).toBe('string');
  expect(Array.isArray(blocks)).toBe(true);
  expect(blocks.length).toBeGreaterThan(0);
  expect(blocks.length).toBeLessThanOrEqual(50);
  for (const block of blocks) {
    switch (block.type) {
      case 'header':
        expectTextObject(block.text, 150, 'plain_text');
        break;
      case 'section': {
        expect(block.text !== undefined || block.fields !== undefined).toBe(true);
        if (block.text !== undefined) expectTextObject(block.text, 3000);
        const fields = (block.fields ?? []) as unknown[];
        expect(fields.length).toBeLessThanOrEqual(10);
        for (const field of fields) expectTextObject(field, 2000);
        break;
      }
      case 'context': {
        const elements = block.elements as unknown[];
        expect(elements.length).toBeGreaterThan(0);
        expect(elements.length).toBeLessThanOrEqual(10);
        for (const element of elements) expectTextObject(element, 3000);
        break;
      }
      case 'actions': {
        const elements = block.elements as Json[];
        expect(elements.length).toBeLessThanOrEqual(25);
        for (const button of elements) {
          expect(button.type).toBe('button');
          expectTextObject(button.text, 75, 'plain_text');
          expect(new URL(button.url as string).protocol).toBe('https:');
          expect((button.url as string).length).toBeLessThanOrEqual(3000);
          expect((button.action_id as string).length).toBeLessThanOrEqual(255);
        }
        break;
      }
      default:
        throw new Error(`unexpected block type ${String(block.type)}`);
    }
  }
}

describe('alert bodies', () => {
  it('json: exactly the contract fields; dashboardUrl only with a public dashboard URL', () => {
    expect(Object.keys(jsonBody(message, undefined)).sort()).toEqual(
      ['chatbot', 'counts', 'previousStatus', 'reasons', 'runId', 'startedAt', 'status'].sort(),
    );
    expect(jsonBody(message, 'https://ops.example.com/ls/').dashboardUrl).toBe('https://ops.example.com/ls/runs/run-00test0001-abcd');
    expect(jsonBody({ ...message, runId: null }, 'https://ops.example.com').dashboardUrl).toBe(
      'https://ops.example.com/chatbots/bot-%3Cdemo%3E%26co',
    );
  });

  it('slack: a valid Block Kit message with status, chatbot, counts, the first reasons and a link', () => {
    const body = slackBody(message, 'https://ops.example.com');
    expectValidSlackMessage(JSON.parse(JSON.stringify(body)));
    const text = JSON.stringify(body);
    expect(text).toContain('*Status*\\nrefused (was healthy)');
    expect(text).toContain('bot-&lt;demo&gt;&amp;co');
    expect(text).toContain('created 1, updated 2, deleted 3, failed 4, rejected 5');
    expect(text).toContain('…and 2 more');
    expect(text).not.toContain('four');
    expect(text).toContain('https://ops.example.com/runs/run-00test0001-abcd');
    expectValidSlackMessage(alertBody('slack', { ...message, status: 'test', runId: null, startedAt: null, reasons: [] }, undefined));
  });
});

describe('webhook URLs', () => {
  it('are shown as scheme and host only', () => {
    expect(maskWebhookUrl('https://user:pw@hooks.slack.com/services/T0/B0/secret?x=1')).toBe('https://hooks.slack.com/***');
    expect(maskWebhookUrl('http://127.0.0.1:8080/h/secret')).toBe('http://127.0.0.1:8080/***');
    expect(maskWebhookUrl('not a url secret')).toBe('***');
  });

  it('must be http(s)', () => {
    expect(webhookUrlProblem('https://hooks.slack.com/x')).toBeUndefined();
    expect(webhookUrlProblem('ftp://x/y')).toBe('must be an http(s) URL');
    expect(webhookUrlProblem('hooks.slack.com/x')).toBe('must be an absolute http(s) URL');
  });
});
