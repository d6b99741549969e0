import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootstrap } from '../../../server/db/bootstrap';
import { openDatabase } from '../../../server/db/connect';
import { migrate } from '../../../server/db/migrate';
import { createRelayChannel, createRelayToken, createRelayUser, setRelayOptions } from './relayFixtures';
import { testConfig } from './server';

/**
 * The hostile-clients harness (tests/server/hostile-clients.test.ts, bench/hostile/run.ts): a
 * gateway in its own process (server/main.ts of this or another checkout, SQLite in a temp dir,
 * its event-loop delay measured from inside by loopMonitor.mjs), a fake upstream, a probe that
 * keeps calling `/api/status` and a small relay request and records its worst latency, and the
 * attacks of issue 18 §1.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const monitor = fileURLToPath(new URL('./loopMonitor.mjs', import.meta.url));

/** The fake upstream: small answers, and for model `flood` an endless stream of one letter without usage. */
export interface FloodUpstream {
  readonly url: string;
  /** Streams of model `flood` still open. */
  readonly openStreams: () => number;
  close(): Promise<void>;
}

const floodChunk = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'flood', choices: [{ index: 0, delta: { content: 'a'.repeat(512) } }] })}\n\n`;

/** Starts the fake upstream on a free loopback port. */
export async function startFloodUpstream(): Promise<FloodUpstream> {
  let open = 0;
  const flood = async (response: ServerResponse, paced: boolean): Promise<void> => {
    open += 1;
    response.writeHead(200, { 'Content-Type': 'text/event-stream' });
    let closed = false;
    response.on('close', () => (closed = true));
    // up to 20 MB of one letter: 8 chunks (5 KB) every 10 ms, or as fast as the gateway reads them
    const batch = floodChunk.repeat(8);
    for (let i = 0; i < 4096 && !closed; i++) {
      if (!response.write(batch)) {
        await new Promise<void>((resolve) => {
          const done = (): void => {
            response.off('drain', done).off('close', done);
            resolve();
          };
          response.on('drain', done).on('close', done);
        });
      }
      if (paced) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    if (!closed) response.end('data: [DONE]\n\n');
    open -= 1;
  };
  // one event that never ends: 64 MB of one letter without a line break
  const endlessLine = async (response: ServerResponse): Promise<void> => {
    response.writeHead(200, { 'Content-Type': 'text/event-stream' });
    let closed = false;
    response.on('close', () => (closed = true));
    response.write('data: {"choices":[{"delta":{"content":"');
    const piece = 'a'.repeat(256 * 1024);
    for (let i = 0; i < 256 && !closed; i++) {
      if (!response.write(piece)) {
        await new Promise<void>((resolve) => {
          const done = (): void => {
            response.off('drain', done).off('close', done);
            resolve();
          };
          response.on('drain', done).on('close', done);
        });
      }
    }
    if (!closed) response.end('"}}]}\n\ndata: [DONE]\n\n');
  };
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      let json: { model?: string; stream?: boolean } = {};
      try {
        json = JSON.parse(body) as typeof json;
      } catch {
        // not JSON: answered as a small reply
      }
      if (json.model === 'flood' || json.model === 'flood-fast') {
        void flood(response, json.model === 'flood');
        return;
      }
      if (json.model === 'endless-line') {
        void endlessLine(response);
        return;
      }
      const usage = { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 };
      if (json.stream === true) {
        response.writeHead(200, { 'Content-Type': 'text/event-stream' });
        response.end(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'ok' } }] })}\n\ndata: ${JSON.stringify({ choices: [], usage })}\n\ndata: [DONE]\n\n`);
        return;
      }
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 1, model: json.model ?? '', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    openStreams: () => open,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What the gateway's own monitor reports (since the previous report). */
export interface LoopReport {
  readonly maxMs: number;
  readonly p99Ms: number;
  readonly rssMb: number;
}

/** A gateway process with its seeded keys. */
export interface HostileGateway {
  readonly url: string;
  readonly child: ChildProcess;
  /** A key with plenty of quota (the probe's, and the rich attacker's). */
  readonly richKey: string;
  /** A key whose owner has a little quota. */
  readonly poorKey: string;
  /** The event-loop delay since the last call, and the RSS now. */
  loop(): Promise<LoopReport>;
  /** The RSS from /proc (MB). */
  rssMb(): number;
  stop(): Promise<void>;
}

/** How long `loop()` waits for the gateway's report. */
const loopReportTimeoutMs = 20_000;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Seeds a SQLite file in a temp dir and starts `server/main.ts` of `checkout` (default: this one) on it. */
export async function startHostileGateway(
  upstreamUrl: string,
  checkout: string = root,
  nodeArgs: readonly string[] = [],
  env: Readonly<Record<string, string>> = {},
): Promise<HostileGateway> {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-'));
  const path = join(dir, 'gateway.db');
  const database = { kind: 'sqlite', path, busyTimeoutMs: 3000 } as const;
  const handle = openDatabase(testConfig(database));
  let richKey: string;
  let poorKey: string;
  try {
    await migrate(handle.db, handle.dialect);
    await bootstrap(handle.db, handle.dialect, testConfig(database));
    await setRelayOptions(handle.db);
    const rich = await createRelayUser(handle.db, { username: 'rich', quota: 1_000_000_000_000 });
    const poor = await createRelayUser(handle.db, { username: 'poor', quota: 200 });
    richKey = (await createRelayToken(handle.db, { userId: rich, name: 'rich', remainQuota: 0, unlimited: true })).key;
    poorKey = (await createRelayToken(handle.db, { userId: poor, name: 'poor', remainQuota: 0, unlimited: true })).key;
    await createRelayChannel(handle.db, { key: 'upstream', baseUrl: upstreamUrl, models: 'gpt-3.5-turbo,gpt-4o,flood,flood-fast,endless-line' });
  } finally {
    await handle.close();
  }
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', '--import', monitor, 'server/main.ts'], {
    cwd: checkout,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      SQLITE_PATH: path,
      SQL_DSN: '',
      SESSION_SECRET: 'hostile-secret',
      GLOBAL_API_RATE_LIMIT: '0',
      GLOBAL_WEB_RATE_LIMIT: '0',
      CHANNEL_TEST_FREQUENCY: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let errors = '';
  child.stderr?.on('data', (b: Buffer) => (errors = (errors + b.toString()).slice(-4000)));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (b: Buffer) => {
      if (b.toString().includes('listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`gateway exited (${code}): ${errors}`)));
  });
  child.stdout?.resume();
  const pid = child.pid ?? 0;
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    richKey,
    poorKey,
    loop: () =>
      new Promise<LoopReport>((resolve) => {
        // a gateway whose event loop stays blocked answers late: its delay is at least the wait
        const timer = setTimeout(() => resolve({ maxMs: loopReportTimeoutMs, p99Ms: loopReportTimeoutMs, rssMb: Number.NaN }), loopReportTimeoutMs);
        child.once('message', (report: LoopReport) => {
          clearTimeout(timer);
          resolve(report);
        });
        child.send('loop');
      }),
    rssMb: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN) / 1024,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The probe's worst latencies while it ran. */
export interface ProbeResult {
  readonly statusWorstMs: number;
  readonly relayWorstMs: number;
  readonly rounds: number;
  readonly failures: readonly string[];
}

/** Calls `/api/status` and a small relay request one after the other every `everyMs` until stopped. */
export function startProbe(gateway: HostileGateway, everyMs = 50): { stop(): Promise<ProbeResult> } {
  let running = true;
  let statusWorstMs = 0;
  let relayWorstMs = 0;
  let rounds = 0;
  const failures: string[] = [];
  const timed = async (what: string, call: () => Promise<Response>): Promise<number> => {
    const started = performance.now();
    try {
      const response = await call();
      const text = await response.text();
      if (response.status !== 200) failures.push(`${what}: ${response.status} ${text.slice(0, 200)}`);
    } catch (error) {
      failures.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return performance.now() - started;
  };
  const loop = (async () => {
    while (running) {
      statusWorstMs = Math.max(statusWorstMs, await timed('status', () => fetch(`${gateway.url}/api/status`, { signal: AbortSignal.timeout(60_000) })));
      relayWorstMs = Math.max(
        relayWorstMs,
        await timed('relay', () =>
          fetch(`${gateway.url}/v1/chat/completions`, {
            method: 'POST',
            headers: { Authorization: `Bearer sk-${gateway.richKey}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hello' }] }),
            signal: AbortSignal.timeout(60_000),
          }),
        ),
      );
      rounds += 1;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { statusWorstMs, relayWorstMs, rounds, failures };
    },
  };
}

/** An attack with its payloads built (so that building them does not delay the probe): runs it. */
export type Attack = () => Promise<AttackOutcome>;

/** What one attack's requests got. */
export interface AttackOutcome {
  /** HTTP status (or error text) of each attacking request. */
  readonly answers: readonly string[];
  /** Their bodies (first 300 characters), for the test's checks. */
  readonly bodies: readonly string[];
}

const relayPost = async (gateway: HostileGateway, key: string, body: string, timeoutMs: number): Promise<[string, string]> => {
  try {
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer sk-${key}`, 'Content-Type': 'application/json' },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    return [String(response.status), (await response.text()).slice(0, 300)];
  } catch (error) {
    return [error instanceof Error ? error.name : 'error', ''];
  }
};

const settle = async (calls: Promise<[string, string]>[]): Promise<AttackOutcome> => {
  const results = await Promise.all(calls);
  return { answers: results.map(([answer]) => answer), bodies: results.map(([, body]) => body) };
};

/**
 * Attack 1: prompts of one letter repeated (100,000 times from the poor key, which the old
 * gateway counted before refusing for quota; 1,000,000 from the rich key, which it counts then
 * relays) and a 2 MB prompt of ordinary words from the rich key.
 */
export function longPromptAttack(gateway: HostileGateway, timeoutMs = 30_000): Attack {
  const letters = (n: number, model: string) => JSON.stringify({ model, max_tokens: 1, messages: [{ role: 'user', content: 'a'.repeat(n) }] });
  const words = ['gateway', 'token', 'quota', 'stream', 'upstream', 'relay', 'hostile', 'client', '令牌', '网关'];
  let text = '';
  for (let i = 0; text.length < 2_000_000; i++) text += `${words[(i * 7) % words.length] ?? ''}${i % 13 === 0 ? '.\n' : ' '}`;
  const bodies: [string, string][] = [
    [gateway.poorKey, letters(100_000, 'gpt-3.5-turbo')],
    [gateway.poorKey, letters(100_000, 'gpt-4o')],
    [gateway.richKey, letters(1_000_000, 'gpt-3.5-turbo')],
    [gateway.richKey, JSON.stringify({ model: 'gpt-4o', max_tokens: 1, messages: [{ role: 'user', content: text }] })],
  ];
  return () => settle(bodies.map(([key, body]) => relayPost(gateway, key, body, timeoutMs)));
}

/**
 * Attack 2: `clients` streaming requests for an endless upstream stream of one letter without
 * usage; the clients never read, then disconnect after `holdMs`.
 */
export function stalledStreamAttack(gateway: HostileGateway, clients = 20, holdMs = 1500, model = 'flood'): Attack {
  const { port } = new URL(gateway.url);
  const body = JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'go' }] });
  const one = (): Promise<[string, string]> =>
    new Promise((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      let head = '';
      socket.once('data', (chunk: Buffer) => {
        head = chunk.toString('latin1').split('\r\n')[0] ?? '';
        // never read again: the kernel buffers fill, the gateway must wait for this client
        socket.pause();
      });
      socket.write(
        `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer sk-${gateway.richKey}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      setTimeout(() => {
        socket.destroy();
        resolve([head === '' ? 'no answer' : head.split(' ')[1] ?? head, head]);
      }, holdMs);
      socket.on('error', () => undefined);
    });
  return () => settle(Array.from({ length: clients }, one));
}

/** Attack 3: bodies nested 1.9 M levels deep (3.8 MB) on login and register, 100 k levels on the relay, and a relay body of a million small objects. */
export function deepJsonAttack(gateway: HostileGateway, timeoutMs = 30_000): Attack {
  const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
  const huge = deep(1_900_000);
  const post = (path: string, body: string, headers: Record<string, string> = {}): Promise<[string, string]> =>
    postEarlyAnswer(`${gateway.url}${path}`, body, { 'Content-Type': 'application/json', ...headers }, timeoutMs);
  const relayDeep = `{"model":"gpt-3.5-turbo","messages":[{"role":"user","content":"x"}],"x":${deep(100_000)}}`;
  const small = deep(5000);
  const many = `{"model":"gpt-3.5-turbo","messages":[{"role":"user","content":"x"}],"x":[${Array(1_000_000).fill('{"a":"b"}').join(',')}]}`;
  return () =>
    settle([
      post('/api/user/login', huge),
      post('/api/user/register', huge),
      post('/api/user/login', huge, { 'Accept-Language': 'zh-CN' }),
      post('/api/user/login', small),
      post('/v1/chat/completions', relayDeep, { Authorization: `Bearer sk-${gateway.poorKey}` }),
      post('/v1/chat/completions', many, { Authorization: `Bearer sk-${gateway.poorKey}` }),
    ]);
}

/**
 * POSTs `body` with node:http and reads the answer even when the gateway gives it before the body
 * is all sent and then closes the connection (what a refused oversized body gets): fetch reports
 * such a request as a failed one (`TypeError`, the write broke), whatever the answer said.
 * Resolves `[status, first 300 characters]`, or `[error name, '']` when no answer came.
 */
export function postEarlyAnswer(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<[string, string]> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: [string, string]): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const payload = Buffer.from(body);
    const request = httpRequest(url, { method: 'POST', headers: { ...headers, 'Content-Length': String(payload.length) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      const done = (): void => finish([String(response.statusCode), Buffer.concat(chunks).toString('utf8').slice(0, 300)]);
      response.on('end', done);
      response.on('error', done);
      response.on('close', done);
    });
    const timer = setTimeout(() => {
      request.destroy();
      finish(['TimeoutError', '']);
    }, timeoutMs);
    // A write that breaks because the answer came first is not the outcome; the answer is.
    request.on('error', (error) => setTimeout(() => finish([error.name, '']), 1000));
    request.end(payload);
  });
}

/** Attack 4 (an upstream's): streams whose first event never ends (64 MB without a line break), from 4 clients. */
export function endlessEventAttack(gateway: HostileGateway, clients = 4, timeoutMs = 30_000): Attack {
  const body = JSON.stringify({ model: 'endless-line', stream: true, messages: [{ role: 'user', content: 'go' }] });
  return () => settle(Array.from({ length: clients }, () => relayPost(gateway, gateway.richKey, body, timeoutMs)));
}

/** One attack's figures. */
export interface AttackFigures {
  readonly name: string;
  readonly seconds: number;
  readonly loopMaxMs: number;
  readonly probe: ProbeResult;
  readonly rssBeforeMb: number;
  readonly rssPeakMb: number;
  readonly rssAfterMb: number;
  readonly outcome: AttackOutcome;
}

/**
 * Runs `attack` while the probe runs, then waits up to `settleMs` for the gateway to calm down
 * (its event loop answering within 50 ms again); reports the worst event-loop delay the gateway
 * measured in itself, the probe's worst latencies and the RSS before, at its peak and after.
 */
export async function measureAttack(gateway: HostileGateway, name: string, attack: Attack, settleMs = 5_000): Promise<AttackFigures> {
  await gateway.loop();
  const rssBeforeMb = gateway.rssMb();
  let rssPeakMb = rssBeforeMb;
  const sampler = setInterval(() => {
    try {
      rssPeakMb = Math.max(rssPeakMb, gateway.rssMb());
    } catch {
      // the process is gone
    }
  }, 50);
  const started = performance.now();
  const probe = startProbe(gateway);
  const outcome = await attack();
  // the aftermath counts too (the old gateway kept counting after the clients left)
  const calmBy = performance.now() + settleMs;
  let loopMaxMs = 0;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const report = await gateway.loop();
    loopMaxMs = Math.max(loopMaxMs, report.maxMs);
    if (report.maxMs < 50 || performance.now() > calmBy) break;
  }
  const probed = await probe.stop();
  clearInterval(sampler);
  loopMaxMs = Math.max(loopMaxMs, (await gateway.loop()).maxMs);
  return { name, seconds: (performance.now() - started) / 1000, loopMaxMs, probe: probed, rssBeforeMb, rssPeakMb, rssAfterMb: gateway.rssMb(), outcome };
}

/** One line of figures. */
export const describeFigures = (f: AttackFigures): string =>
  `${f.name}: ${f.seconds.toFixed(1)} s, event loop worst ${f.loopMaxMs.toFixed(0)} ms, probe worst /api/status ${f.probe.statusWorstMs.toFixed(0)} ms / relay ${f.probe.relayWorstMs.toFixed(0)} ms (${f.probe.rounds} rounds, ${f.probe.failures.length} failures), RSS ${f.rssBeforeMb.toFixed(0)} → peak ${f.rssPeakMb.toFixed(0)} → ${f.rssAfterMb.toFixed(0)} MB; answers ${f.outcome.answers.join(',')}`;
