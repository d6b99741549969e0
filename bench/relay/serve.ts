// The serving side of the bench's child processes (fake upstream, bare proxy): listen on a free
// loopback port, print `listening <port>` for the parent, stop cleanly on SIGTERM / SIGINT.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on 127.0.0.1 (a free port) with long keep-alive, announces the port, exits on a signal. */
export function serveUntilStopped(server: Server): void {
  // Clients (the gateway's pool, the proxy's pool, autocannon) keep their connections for the whole run.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 121_000;
  // A backlog above Node's 511: the many-streams scenario connects thousands of clients within seconds.
  server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => {
    console.log(`listening ${(server.address() as AddressInfo).port}`);
  });
  const stop = (): void => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
