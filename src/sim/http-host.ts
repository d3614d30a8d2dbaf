/**
 * What both simulators (the service's and the RESO Web API's) need from node:http: a request
 * body read up to a limit, a server listening on a loopback port, and a close that does not wait
 * for keep-alive sockets a client left open.
 */
import { createServer, type IncomingMessage, type RequestListener } from 'node:http';
import type { Socket } from 'node:net';

/** The body as UTF-8 text, or undefined once it passes `maxBytes` (the caller answers 413). */
export async function readBodyWithin(req: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > maxBytes) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface ListeningServer {
  /** e.g. http://127.0.0.1:PORT */
  baseUrl: string;
  /** Closes the server and destroys every open socket; the same promise on every call. */
  close(): Promise<void>;
}

/** Starts an HTTP server for `listener` on `host:port` (port 0: a free port the OS picks). */
export async function listenHttp(listener: RequestListener, port: number, host: string, name: string): Promise<ListeningServer> {
  const sockets = new Set<Socket>();
  const server = createServer(listener);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error(`${name} did not get a TCP address`);
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    baseUrl: `http://${urlHost}:${address.port}`,
    close: () => {
      // Why destroy the sockets: server.close() waits for idle keep-alive connections otherwise.
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
