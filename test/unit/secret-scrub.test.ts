/**
 * The one scrubber (src/shared/secret-scrub.ts): each form a secret leaks in — as itself,
 * JSON-escaped once and twice, ASCII-only JSON, percent- and form-encoded, HTML-escaped, and base64
 * at any alignment — is replaced; ordinary text is left alone; errors are scrubbed in place.
 */
import { describe, expect, it } from 'vitest';
import { createScrubber, REDACTED, registerSecrets } from '../../src/shared/secret-scrub.js';
import { maskWebhookUrl, webhookSecrets } from '../../src/domain/health/webhook-url.js';
import { ListingSyncError } from '../../src/shared/errors.js';
import { ErrorCode } from '../../src/shared/error-codes.js';

const NASTY = 'pa"ss\\wörd-7Q';
const PLAIN = 'SK-plain-3c9d1e';

function encodings(secret: string): Record<string, string> {
  const json = JSON.stringify(secret).slice(1, -1);
  return {
    raw: secret,
    json,
    jsonTwice: JSON.stringify(json).slice(1, -1),
    jsonAscii: JSON.stringify(secret)
      .slice(1, -1)
      .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    url: encodeURIComponent(secret),
    form: new URLSearchParams({ v: secret }).toString().slice(2),
    html: secret.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;'),
    base64: Buffer.from(secret).toString('base64'),
    base64After1: Buffer.from(`x${secret}`).toString('base64'),
    base64After2: Buffer.from(`xy${secret}`).toString('base64'),
    basicAuth: Buffer.from(`ops:${secret}`).toString('base64'),
    base64Url: Buffer.from(`xy${secret}`).toString('base64url'),
  };
}

/** Whether `text` still shows `secret` in any of its encodings (the base64 ones decoded back). */
function shows(text: string, secret: string): boolean {
  const forms = Object.values(encodings(secret)).slice(0, 7);
  if (forms.some((form) => text.includes(form))) return true;
  return [...text.matchAll(/[A-Za-z0-9+/_-]{8,}={0,2}/g)].some((m) =>
    [Buffer.from(m[0], 'base64'), Buffer.from(m[0], 'base64url')].some((bytes) => bytes.toString('utf8').includes(secret)),
  );
}

describe('createScrubber', () => {
  const scrubber = createScrubber([NASTY, PLAIN, 'abc', '', undefined]);

  for (const secret of [NASTY, PLAIN]) {
    for (const [name, form] of Object.entries(encodings(secret))) {
      it(`replaces ${name === 'raw' ? 'the raw value' : `the ${name} form`} of ${JSON.stringify(secret)}`, () => {
        const text = `before ${form} after`;
        expect(shows(text, secret)).toBe(true);
        const out = scrubber.text(text);
        expect(out).toContain(REDACTED);
        expect(shows(out, secret)).toBe(false);
        expect(out.startsWith('before ')).toBe(true);
      });
    }
  }

  it('finds a secret in a JSON log line that quotes a JSON-escaped failure', () => {
    const line = JSON.stringify({ msg: 'job failed', failedReason: JSON.stringify({ Message: `headers ${NASTY}` }) });
    expect(scrubber.text(line)).not.toContain('w\\u00f6rd');
    expect(shows(scrubber.text(line), NASTY)).toBe(false);
    expect(JSON.parse(scrubber.text(line))).toMatchObject({ msg: 'job failed' });
  });

  it('leaves text without secrets as it is and ignores values shorter than 4 characters', () => {
    expect(scrubber.text('abc abd 123 ordinary text')).toBe('abc abd 123 ordinary text');
    expect(createScrubber([]).active).toBe(false);
    expect(createScrubber(['ab']).text('ab')).toBe('ab');
  });

  it('scrubs an error in place: message, stack, details and causes, keeping its class and code', () => {
    const cause = new Error(`socket said ${PLAIN}`);
    const err = new ListingSyncError(ErrorCode.ENVELOPE_FAILURE, `refused: ${NASTY}`, {
      details: { envelopeMessage: `echo ${NASTY}`, problems: [`x ${PLAIN}`], status: 400 },
      cause,
    });
    const same = scrubber.error(err);
    expect(same).toBe(err);
    expect(same).toBeInstanceOf(ListingSyncError);
    expect(same.code).toBe(ErrorCode.ENVELOPE_FAILURE);
    const texts = [same.message, same.stack ?? '', JSON.stringify(same.details), cause.message, cause.stack ?? ''];
    for (const text of texts) for (const secret of [NASTY, PLAIN]) expect(shows(text, secret)).toBe(false);
    expect(same.details.status).toBe(400);
    expect(same.message).toBe(`refused: ${REDACTED}`);
  });
});

describe('secrets registered after the scrubbers were made (a webhook URL read from Redis)', () => {
  it('every scrubber, made before or after, scrubs a registered secret in each form', () => {
    const before = createScrubber([]);
    const late = 'registered-late-secret-4d7e';
    expect(before.text(`x ${late} y`)).toBe(`x ${late} y`);
    registerSecrets([late]);
    const after = createScrubber([PLAIN]);
    expect(before.active).toBe(true);
    for (const scrubber of [before, after]) {
      expect(scrubber.text(`x ${late} y`)).toBe(`x ${REDACTED} y`);
      expect(scrubber.text(JSON.stringify({ m: Buffer.from(`u:${late}`).toString('base64') }))).not.toContain(
        Buffer.from(`u:${late}`).toString('base64').slice(4, 20),
      );
    }
    expect(after.text(PLAIN)).toBe(REDACTED);
  });

  it("a webhook's secrets: the URL, its password, long query values and path segments; not its host or short words", () => {
    const url = 'https://ops:pw-9f8e7d@hooks.example.com/services/T0AAAA/B0BBBB/abcdefghijklmnop1234?token=tok-1234abcd&format=json';
    const secrets = webhookSecrets(url);
    expect(secrets).toEqual(
      expect.arrayContaining([
        url,
        'pw-9f8e7d',
        'abcdefghijklmnop1234',
        'tok-1234abcd',
        '/services/T0AAAA/B0BBBB/abcdefghijklmnop1234?token=tok-1234abcd&format=json',
      ]),
    );
    for (const word of ['hooks.example.com', 'https:', 'services', 'json', 'ops', '/']) expect(secrets).not.toContain(word);
    const scrubber = createScrubber(secrets);
    expect(scrubber.text(`posting to ${maskWebhookUrl(url)}`)).toBe('posting to https://hooks.example.com/***');
    expect(scrubber.text(`echo: ${encodeURIComponent(url)}`)).toBe(`echo: ${REDACTED}`);
  });
});
