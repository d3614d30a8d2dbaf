import { describe, expect, it } from 'vitest';
import { webhookSealOf } from '../../src/domain/health/webhook-seal.js';

const URL_ = 'https://hooks.example.com/services/T0000SECRETPATHTOKEN?token=query-secret-value';

describe('webhook seal', () => {
  it('opens what it sealed, and the sealed form holds nothing of the URL', () => {
    const seal = webhookSealOf('job key A');
    const sealed = seal.seal(URL_);
    expect(sealed.v).toBe(1);
    expect(seal.open(sealed)).toBe(URL_);
    const stored = JSON.stringify(sealed);
    for (const part of ['hooks.example.com', 'T0000SECRETPATHTOKEN', 'query-secret-value']) {
      expect(stored).not.toContain(part);
      expect(stored).not.toContain(Buffer.from(part).toString('base64url'));
    }
    expect(seal.seal(URL_).iv).not.toBe(sealed.iv);
  });

  it('does not open under another job key', () => {
    const sealed = webhookSealOf('job key A').seal(URL_);
    expect(() => webhookSealOf('job key B').open(sealed)).toThrow();
  });

  it('does not open a tampered value: ciphertext, tag, nonce or a shortened tag', () => {
    const seal = webhookSealOf('job key A');
    const sealed = seal.seal(URL_);
    const flip = (text: string): string => {
      const bytes = Buffer.from(text, 'base64url');
      bytes[0] = (bytes[0] ?? 0) ^ 1;
      return bytes.toString('base64url');
    };
    expect(() => seal.open({ ...sealed, data: flip(sealed.data) })).toThrow();
    expect(() => seal.open({ ...sealed, tag: flip(sealed.tag) })).toThrow();
    expect(() => seal.open({ ...sealed, iv: flip(sealed.iv) })).toThrow();
    const short = Buffer.from(sealed.tag, 'base64url').subarray(0, 4).toString('base64url');
    expect(() => seal.open({ ...sealed, tag: short })).toThrow();
  });
});
