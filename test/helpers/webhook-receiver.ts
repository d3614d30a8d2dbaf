/**
 * A local webhook receiver for alert tests: a real http server on port 0 that records every POST
 * (path, parsed JSON body, the status it answered) and answers from a script (e.g. 500 once,
 * then 200 for good).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  path: string;
  body: unknown;
  answered: number;
}

export interface WebhookReceiver {
  /** Base URL, e.g. http://127.0.0.1:40123 */
  url: string;
  received: ReceivedHook[];
  /** Bodies the receiver accepted (answered 2xx): what a person was told. */
  accepted(): unknown[];
  /** Answers these statuses to the next requests, in order, then 200 again. */
  answerNext(...statuses: number[]): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const script: number[] = [];
  const received: ReceivedHook[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const answered = script.shift() ?? 200;
      let body: unknown = text;
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        // kept as text
      }
      received.push({ path: req.url ?? '', body, answered });
      res.writeHead(answered, { 'content-type': 'text/plain' }).end(answered < 300 ? 'ok' : 'nope');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    accepted: () => received.filter((hook) => hook.answered < 300).map((hook) => hook.body),
    answerNext: (...statuses) => void script.push(...statuses),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
