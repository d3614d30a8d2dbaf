/**
 * One HTTP exchange with a feed server or its token endpoint (undici): a deadline on the headers
 * and on every pause in the body, a cap on the body's bytes, and the bytes counted as they
 * arrive (a budget counts what came, also from an answer that failed half way). No retries and
 * no classification here: feed-client.ts and token-provider.ts decide what a status means.
 */
import { request } from 'undici';
import { errorCode } from '../../shared/errors.js';

export interface ExchangeRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Longest wait for the headers, and for each next piece of the body. */
  timeoutMs: number;
  /** Largest body read; a larger one fails as 'too-large'. */
  maxBytes: number;
  signal?: AbortSignal;
  /** Called with each chunk's size as it arrives. */
  onBytes?: (bytes: number) => void;
}

export interface Exchange {
  status: number;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  text: string;
}

/**
 * Why an exchange failed. `detail` is a code (UND_ERR_HEADERS_TIMEOUT, ECONNREFUSED…), never the
 * client's message or the error itself: those can quote the URL, whose query may carry a token.
 */
export class ExchangeFailure extends Error {
  constructor(
    readonly reason: 'network' | 'too-large' | 'aborted',
    readonly detail: string,
  ) {
    super(`${reason} (${detail})`);
    this.name = 'ExchangeFailure';
  }
}

async function readText(chunks: AsyncIterable<Uint8Array>, exchange: ExchangeRequest, declared: number): Promise<string> {
  if (declared > exchange.maxBytes) throw new ExchangeFailure('too-large', `content-length ${declared} > ${exchange.maxBytes}`);
  const parts: Buffer[] = [];
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.length;
    exchange.onBytes?.(chunk.length);
    if (total > exchange.maxBytes) throw new ExchangeFailure('too-large', `more than ${exchange.maxBytes} bytes`);
    parts.push(Buffer.from(chunk));
  }
  return Buffer.concat(parts).toString('utf8');
}

/** Sends one request and reads its whole answer, whatever its status. */
export async function exchange(sent: ExchangeRequest): Promise<Exchange> {
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(sent.url, {
      method: sent.method,
      headers: sent.headers,
      ...(sent.body === undefined ? {} : { body: sent.body }),
      headersTimeout: sent.timeoutMs,
      bodyTimeout: sent.timeoutMs,
      ...(sent.signal === undefined ? {} : { signal: sent.signal }),
    });
  } catch (thrown) {
    throw new ExchangeFailure(sent.signal?.aborted === true ? 'aborted' : 'network', errorCode(thrown));
  }
  try {
    const declared = Number(response.headers['content-length'] ?? 0);
    const text = await readText(response.body, sent, Number.isFinite(declared) ? declared : 0);
    return { status: response.statusCode, headers: response.headers, text };
  } catch (thrown) {
    response.body.destroy();
    if (thrown instanceof ExchangeFailure) throw thrown;
    throw new ExchangeFailure(sent.signal?.aborted === true ? 'aborted' : 'network', errorCode(thrown));
  }
}
