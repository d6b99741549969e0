import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A fake provider's HTTP server on a free loopback port. */
export interface LoopbackServer {
  readonly url: string;
  /** Closes the server and every connection still open (streams the fake is still writing included). */
  close(): Promise<void>;
}

/**
 * Serves `answer` on 127.0.0.1 (a free port). An answer that throws destroys its connection, as a
 * provider that fails mid-answer would.
 */
export async function startLoopbackServer(answer: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    answer(req, res).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
