// Client CPU of starting upstream requests while thousands are open, undici's Agent (its pool
// scans every connection for an idle one) against the relay's FreeListDispatcher
// (server/relay/upstreamClient.ts): `npx tsx bench/relay/dispatch.ts` (BENCH_BUSY 4000 requests
// held open, BENCH_FRESH 2000 new ones timed in batches of 50, BENCH_ROUNDS 4, the two in turns).
// The upstream is a child process (node:http) holding `/hold` answers open. Prints µs of this
// process's CPU per new request, per round. Needs an open-files limit above twice BENCH_BUSY.
import { fork } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';
import { FreeListDispatcher } from '../../server/relay/upstreamClient';

if (process.env.BENCH_DISPATCH_SERVER === '1') {
  const held: ServerResponse[] = [];
  const server = createServer({ keepAlive: true }, (req, res) => {
    if (req.url === '/hold') {
      res.writeHead(200);
      res.write('x');
      held.push(res);
      return;
    }
    if (req.url === '/release') for (const r of held.splice(0)) r.end();
    res.end('ok');
  });
  server.listen(0, '127.0.0.1', 8000, () => process.send?.((server.address() as AddressInfo).port));
} else {
  const child = fork(process.argv[1] ?? '', [], { env: { ...process.env, BENCH_DISPATCH_SERVER: '1' }, execArgv: process.execArgv });
  const port = await new Promise<number>((resolve) => child.once('message', (m) => resolve(m as number)));
  const origin = `http://127.0.0.1:${port}`;
  const busy = Number(process.env.BENCH_BUSY ?? 4000);
  const fresh = Number(process.env.BENCH_FRESH ?? 2000);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 4);
  const round = async (kind: 'agent' | 'free'): Promise<number> => {
    const dispatcher: Dispatcher =
      kind === 'agent' ? new Agent({ connections: null, pipelining: 1, keepAliveTimeout: 30_000, headersTimeout: 0, bodyTimeout: 0 }) : new FreeListDispatcher();
    const holds: Dispatcher.ResponseData[] = [];
    for (let i = 0; i < busy; i += 50) holds.push(...(await Promise.all(Array.from({ length: 50 }, () => request(`${origin}/hold`, { dispatcher })))));
    const before = process.cpuUsage();
    for (let i = 0; i < fresh; i += 50) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => request(`${origin}/x`, { dispatcher })));
      await Promise.all(answers.map((a) => a.body.text()));
    }
    const cpu = process.cpuUsage(before);
    await (await request(`${origin}/release`, { dispatcher })).body.text();
    await Promise.all(holds.map((h) => h.body.text()));
    await dispatcher.close();
    return Math.round((cpu.user + cpu.system) / fresh);
  };
  const figures: Record<'agent' | 'free', number[]> = { agent: [], free: [] };
  for (let r = 0; r < rounds; r += 1) for (const kind of r % 2 === 0 ? (['agent', 'free'] as const) : (['free', 'agent'] as const)) figures[kind].push(await round(kind));
  console.log(`µs of CPU per new request with ${busy} open: undici Agent ${figures.agent.join(', ')}; free list ${figures.free.join(', ')}`);
  child.kill();
}
