// Child processes of the relay bench: the fake upstream and the gateway, each a plain Node process
// running TypeScript through tsx's loader, started with an explicit environment and awaited until
// it prints its ready line; plus the free-port and RSS helpers.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The repository root (bench/relay/../..). */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** tsx's loader as an absolute URL, so a child may run in any working directory. */
const tsxLoader = import.meta.resolve('tsx');

/** A started child process and the output it has written so far. */
export interface Child {
  readonly process: ChildProcess;
  readonly pid: number;
  /** Everything written to stderr (for error reports). */
  stderr(): string;
  /** Sends SIGTERM and waits for the exit. */
  stop(): Promise<void>;
}

export interface SpawnOptions {
  /** The script, relative to the repository root. */
  readonly script: string;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Extra Node flags (e.g. `--cpu-prof`). */
  readonly nodeFlags?: readonly string[];
  /** A line on stdout matching this means ready; its match is returned. */
  readonly ready: RegExp;
  /** Give up after this many ms. */
  readonly timeoutMs?: number;
}

/** Starts `script` with Node + tsx and resolves once it printed a line matching `ready`. */
export async function startChild(o: SpawnOptions): Promise<{ child: Child; match: RegExpExecArray }> {
  const child = spawn(process.execPath, [...(o.nodeFlags ?? []), '--import', tsxLoader, fileURLToPath(new URL(o.script, `file://${repoRoot}`))], {
    cwd: o.cwd,
    env: o.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (b: Buffer) => (errors += b.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${o.script} not ready after ${o.timeoutMs ?? 30_000} ms: ${errors}`)), o.timeoutMs ?? 30_000);
    child.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
      const m = o.ready.exec(out);
      if (m !== null) {
        clearTimeout(timer);
        resolve(m);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${o.script} exited (${code}): ${errors}`));
    });
  });
  // Keep draining stdout so a chatty child never blocks on a full pipe.
  child.stdout?.resume();
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${o.script}: no pid`);
  return {
    match,
    child: {
      process: child,
      pid,
      stderr: () => errors,
      stop: async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await exited;
      },
    },
  };
}

/** A free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The resident set size of `pid` in MB, from /proc (NaN where /proc is missing). */
export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds (user + system) `pid` has used so far, from /proc (NaN where /proc is missing). */
export function cpuSeconds(pid: number): number {
  try {
    // Fields after the parenthesised command name; utime and stime are the 12th and 13th of them.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicks;
  } catch {
    return Number.NaN;
  }
}

/** Linux's USER_HZ (100 on every mainstream architecture). */
const clockTicks = 100;
