/**
 * A TCP gate in front of a real server: connections to it are accepted at once, but no byte
 * passes either way until `open()`. A client behind it is connected yet gets no answer, which
 * holds it in a known state (a Redis connection not ready) for exactly as long as a test wants,
 * instead of hoping the machine is slow or fast enough.
 */
import { createConnection, createServer, type Socket } from 'node:net';

export interface TcpGate {
  /** The gate's address in the target's URL form, e.g. redis://127.0.0.1:PORT. */
  url: string;
  /** Lets every held and later connection through to the target. */
  open(): void;
  /** Connections the gate has accepted so far. */
  accepted(): number;
  close(): Promise<void>;
}

/** A gate in front of `targetUrl` (a redis:// URL or any URL with host and port). */
export async function startTcpGate(targetUrl: string): Promise<TcpGate> {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  const held: Socket[] = [];
  let isOpen = false;
  let acceptedCount = 0;

  const track = (socket: Socket): Socket => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    return socket;
  };
  const pass = (client: Socket): void => {
    const upstream = track(createConnection({ host: target.hostname, port: Number(target.port) }));
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.resume();
  };

  const server = createServer({ pauseOnConnect: true }, (client) => {
    acceptedCount += 1;
    track(client);
    if (isOpen) pass(client);
    else held.push(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('tcp gate: no port');
  const url = new URL(targetUrl);
  url.host = `127.0.0.1:${address.port}`;

  return {
    url: url.toString(),
    open() {
      isOpen = true;
      for (const client of held.splice(0)) if (!client.destroyed) pass(client);
    },
    accepted: () => acceptedCount,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
