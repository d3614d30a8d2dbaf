/**
 * The response envelope of api-spec 2.5 and the framework-free handler result the HTTP adapter
 * writes. Every answer of the simulator, errors included, is an envelope.
 */
import type { Envelope } from './spec/responses.js';

/** What a handler returns; the adapter in server.ts turns it into an HTTP response. */
export interface HandlerResult {
  status: number;
  body: Envelope<unknown>;
  headers?: Record<string, string>;
}

/** Builds envelopes carrying the configured API version. */
export interface EnvelopeFactory {
  ok(data: unknown): HandlerResult;
  /** A business-level failure: HTTP `status` (200 unless given), Success false, Code `code`. */
  fail(code: number, message: string, options?: { status?: number; headers?: Record<string, string> }): HandlerResult;
}

export function envelopeFactory(version: string): EnvelopeFactory {
  return {
    ok: (data) => ({ status: 200, body: { Data: data, Version: version, Success: true, Code: 200, Message: '' } }),
    fail: (code, message, options = {}) => ({
      status: options.status ?? 200,
      body: { Data: null, Version: version, Success: false, Code: code, Message: message },
      ...(options.headers ? { headers: options.headers } : {}),
    }),
  };
}
