import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/connect';
import { consumeLogs, createRelayChannel, createRelayToken, createRelayUser, sdkClient, setRelayOptions, userQuota } from './support/relayFixtures';
import { replyText, startRelayUpstream } from './support/relayUpstream';

/**
 * `npm start` as a user runs it (scripts/start.mjs, SQLite): it builds what is stale, answers on
 * PORT, runs the server with plain Node (no TypeScript loader, no bundler, only `dependencies`),
 * and a SIGTERM ends it through the server's graceful shutdown with exit code 0.
 */

const root = new URL('../../', import.meta.url).pathname;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (address !== null && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Whether something accepts connections on the port (the port is not free). */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(true));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(false)));
  });
}

/** The command lines of `pid` and of every process under it (Linux /proc). */
function processTree(pid: number): string[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, read after the last ')'.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i += 1) for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  return tree.flatMap((p) => {
    try {
      return [readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').join(' ').trim()];
    } catch {
      return [];
    }
  });
}

async function waitForStatus(url: string, child: ChildProcess, deadlineMs: number): Promise<Response> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return response;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${url} did not answer within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Started {
  readonly child: ChildProcess;
  readonly port: number;
  readonly output: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs `node scripts/start.mjs` (or `command`) as a user's shell would, on a free port and the SQLite file `path`. */
async function startGateway(path: string, command: readonly string[] = [process.execPath, 'scripts/start.mjs']): Promise<Started> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), SQLITE_PATH: path };
  delete env.SQL_DSN;
  delete env.NODE_OPTIONS;
  delete env.NODE_ENV;
  delete env.SQLITE_SETTLEMENT_THREAD;
  const [program, ...args] = command;
  const child = spawn(program!, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, port, output: () => output, exited };
}

describe('npm start (scripts/start.mjs)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'start-script-'));
  const dbPath = join(dir, 'one-api.db');
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  // A fresh clone builds the console and the server first: up to a few minutes on a loaded machine.
  it('serves /api/status with plain Node, creates root, and stops cleanly on SIGTERM', { timeout: 300_000 }, async () => {
    const started = await startGateway(dbPath);
    child = started.child;
    const { port, output, exited } = started;
    const status = await waitForStatus(`http://127.0.0.1:${port}/api/status`, started.child, 240_000);
    expect(((await status.json()) as { success: boolean }).success).toBe(true);
    expect(output()).toContain('First start: created the root user');
    const login = await fetch(`http://127.0.0.1:${port}/api/user/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'root', password: '123456' }),
    });
    expect(((await login.json()) as { success: boolean }).success).toBe(true);
    // The console is served on the same port.
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toContain('<div id="root"');

    // One process: the server runs inside the start script, with no dev tool on any command line.
    const commands = processTree(started.child.pid!);
    expect(commands[0]).toBe(`${process.execPath} scripts/start.mjs`);
    for (const command of commands) expect(command).not.toMatch(/tsx|vite|npx|esbuild/);

    started.child.kill('SIGTERM');
    const end = await exited;
    expect(end).toEqual({ code: 0, signal: null });
    expect(output()).toContain('Gateway stopped.');
    expect(await listening(port)).toBe(false);
  });

  it('starts again on that database without building, and relays through the bundled worker threads', { timeout: 120_000 }, async () => {
    const upstream = await startRelayUpstream();
    try {
      const model = 'gpt-3.5-turbo';
      const seed = openDatabase({ database: { kind: 'sqlite', path: dbPath, busyTimeoutMs: 3_000, settlementThread: false } });
      await setRelayOptions(seed.db);
      await createRelayChannel(seed.db, { key: 'up-start', baseUrl: upstream.url, models: model });
      const userId = await createRelayUser(seed.db, { username: 'start-user', quota: 10_000_000 });
      const token = await createRelayToken(seed.db, { userId, name: 'start-token', remainQuota: 1_000_000 });
      await seed.close();

      const started = await startGateway(dbPath);
      child = started.child;
      await waitForStatus(`http://127.0.0.1:${started.port}/api/status`, started.child, 60_000);
      expect(started.output()).not.toContain('Building');
      expect(started.output()).not.toContain('First start');
      // A long prompt is counted on a token-counting thread; the settlement goes to the SQLite settlement thread.
      const answer = await sdkClient(`http://127.0.0.1:${started.port}`, token.key).chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'count me '.repeat(3_000) }],
      });
      expect(answer.choices[0]?.message.content).toBe(replyText(model));
      started.child.kill('SIGTERM');
      expect(await started.exited).toEqual({ code: 0, signal: null });
      // A worker that failed to start would fall back to the main thread and say so.
      expect(started.output()).not.toMatch(/error|fail|cannot/i);

      const after = openDatabase({ database: { kind: 'sqlite', path: dbPath, busyTimeoutMs: 3_000, settlementThread: false } });
      try {
        const logs = await consumeLogs(after.db, userId);
        expect(logs).toHaveLength(1);
        expect(logs[0]!.quota).toBeGreaterThan(0);
        expect((await userQuota(after.db, userId)).quota).toBe(10_000_000 - logs[0]!.quota);
      } finally {
        await after.close();
      }
    } finally {
      await upstream.close();
    }
  });

  it('rebuilds the server bundle, and only it, when one of its sources is newer', { timeout: 120_000 }, async () => {
    const source = join(root, 'server', 'main.ts');
    const now = new Date();
    utimesSync(source, now, now);
    const started = await startGateway(dbPath);
    child = started.child;
    await waitForStatus(`http://127.0.0.1:${started.port}/api/status`, started.child, 60_000);
    expect(started.output()).toContain('Building the server');
    expect(started.output()).not.toContain('Building the console');
    started.child.kill('SIGTERM');
    expect(await started.exited).toEqual({ code: 0, signal: null });
  });

  it('through npm too: a SIGTERM to `npm start` reaches the server, which stops cleanly', { timeout: 120_000 }, async () => {
    // npm signals the script's shell; the script execs node, so the signal reaches the server.
    const started = await startGateway(dbPath, ['npm', 'start', '--silent']);
    child = started.child;
    await waitForStatus(`http://127.0.0.1:${started.port}/api/status`, started.child, 60_000);
    started.child.kill('SIGTERM');
    expect(await started.exited).toEqual({ code: 0, signal: null });
    expect(started.output()).toContain('Gateway stopped.');
    expect(await listening(started.port)).toBe(false);
  });

  it('bundles the server so that it imports only node builtins and runtime dependencies', () => {
    const metaFile = join(root, 'dist-server', 'meta.json');
    // Built by the test above (or an earlier start).
    expect(existsSync(metaFile)).toBe(true);
    const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as { outputs: Record<string, { imports: { path: string; external?: boolean }[] }> };
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const builtins = new Set(builtinModules);
    const packageName = (specifier: string): string => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
    const externals = new Set(
      Object.values(meta.outputs).flatMap((output) => output.imports.filter((i) => i.external === true).map((i) => i.path)),
    );
    expect(externals.size).toBeGreaterThan(0);
    for (const specifier of externals) {
      if (builtins.has(specifier.replace(/^node:/, ''))) continue;
      expect(pkg.dependencies, `${specifier} is imported at run time`).toHaveProperty([packageName(specifier)]);
    }
    // The worker threads the server starts by path sit beside the bundle.
    for (const worker of ['settlementWorker.mjs', 'tokenCountWorker.mjs']) expect(existsSync(join(root, 'dist-server', worker))).toBe(true);
  });
});
