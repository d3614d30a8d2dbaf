/**
 * Posts an alert to a webhook. The URL is a secret: it never appears in an error message (undici's
 * own messages name at most the host and port, and are reduced to their code here anyway).
 */
import { request } from 'undici';
import { ListingSyncError } from '../shared/errors.js';
import { ErrorCode } from '../shared/error-codes.js';

export interface WebhookAnswer {
  /** The HTTP status the webhook answered. */
  status: number;
}

/** A webhook answer worth trying again: a server error, a timeout, or being told to slow down. */
export function retryableWebhookStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

/** Why a webhook error: its stable code and a message that never holds the URL. */
function unreachable(thrown: unknown, timeoutMs: number): ListingSyncError {
  const code = typeof thrown === 'object' && thrown !== null && 'code' in thrown ? String(thrown.code) : ErrorCode.UNKNOWN;
  const timedOut = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT';
  return new ListingSyncError(
    timedOut ? ErrorCode.WEBHOOK_TIMEOUT : ErrorCode.WEBHOOK_UNREACHABLE,
    timedOut ? `the webhook did not answer within ${timeoutMs} ms` : `the webhook could not be reached (${code})`,
    { retryable: true },
  );
}

/**
 * POSTs `body` as JSON; resolves with the status when the webhook answered 2xx. Throws
 * WEBHOOK_FAILED (retryable: 5xx, 408, 429), WEBHOOK_REJECTED (not retryable: other answers),
 * WEBHOOK_TIMEOUT or WEBHOOK_UNREACHABLE (retryable). The answer's body is read and dropped.
 */
export async function postWebhook(url: string, body: unknown, timeoutMs: number): Promise<WebhookAnswer> {
  let status: number;
  try {
    const response = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'listing-sync-alerts' },
      body: JSON.stringify(body),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    status = response.statusCode;
    await response.body.dump();
  } catch (thrown) {
    throw unreachable(thrown, timeoutMs);
  }
  if (status >= 200 && status < 300) return { status };
  const retryable = retryableWebhookStatus(status);
  throw new ListingSyncError(retryable ? ErrorCode.WEBHOOK_FAILED : ErrorCode.WEBHOOK_REJECTED, `the webhook answered HTTP ${status}`, {
    retryable,
    details: { httpStatus: status },
  });
}
