/**
 * Log lines on a terminal read as text; with --json, or when stderr is not a terminal, they stay
 * one JSON object per line (schedulers and log collectors parse them). Secrets are scrubbed in both.
 */
import { describe, expect, it } from 'vitest';
import { createCliLogger } from '../../src/cli/wiring/api-wiring.js';
import { readableLogLine } from '../../src/cli/output/log-lines.js';
import { resolveConfig } from '../../src/config/config.js';

function captured(isTTY: boolean): { stderr: { isTTY: boolean; write(chunk: string): boolean }; text(): string } {
  let text = '';
  return { stderr: { isTTY, write: (chunk: string) => ((text += chunk), true) }, text: () => text };
}

describe('CLI log lines', () => {
  const config = resolveConfig({ env: { API_SECRET_KEY: 'sk-very-secret-value', LOG_LEVEL: 'info' } });

  it('are readable on a terminal: time, level, message, then the fields', () => {
    const io = captured(true);
    createCliLogger(config, io as never).warn({ runId: 'run-1', idleSeconds: 12 }, 'run run-1: no worker is working on it');
    expect(io.text()).toMatch(/^\d\d:\d\d:\d\d WARN {2}run run-1: no worker is working on it \(runId=run-1 idleSeconds=12\)\n$/);
  });

  it('stay JSON with --json and when stderr is not a terminal', () => {
    for (const [isTTY, json] of [
      [true, true],
      [false, undefined],
    ] as const) {
      const io = captured(isTTY);
      createCliLogger(config, io as never, json).info({ n: 1 }, 'hello');
      expect(JSON.parse(io.text())).toMatchObject({ level: 30, msg: 'hello', n: 1 });
    }
  });

  it('scrub secrets in the readable form too', () => {
    const io = captured(true);
    createCliLogger(config, io as never).error(`the service said sk-very-secret-value is wrong`);
    expect(io.text()).not.toContain('sk-very-secret-value');
    expect(io.text()).toContain('[redacted]');
  });

  it('pass a line that is not JSON through unchanged', () => {
    expect(readableLogLine('plain text\n')).toBe('plain text\n');
  });

  it('wrap at the terminal width, indented under their message, a quoted command kept whole', () => {
    const line = JSON.stringify({
      level: 40,
      time: Date.parse('2026-05-01T12:04:31Z'),
      msg: 'interrupted: run run-1 goes on in the queue; finish it with `listing-sync runs resume run-1 --work` or stop it with `listing-sync runs cancel run-1`',
      runId: 'run-1',
    });
    const shown = readableLogLine(line, 60).trimEnd().split('\n');
    expect(shown[0]).toBe('12:04:31 WARN  interrupted: run run-1 goes on in the queue;');
    expect(shown).toContain('    finish it with `listing-sync runs resume run-1 --work`');
    expect(shown.some((part) => part.includes('`listing-sync runs cancel run-1`'))).toBe(true);
    for (const part of shown.slice(1)) expect(part.startsWith('    ')).toBe(true);
    for (const part of shown) expect(part.length).toBeLessThanOrEqual(60);
  });
});
