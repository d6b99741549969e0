// Child processes of the relay bench: the fake upstream and the gateway, each a plain Node process
// running TypeScript through tsx's loader, started with an explicit environment and awaited until
// it prints its ready line (optionally with an IPC channel, and with its open-files limit raised);
// plus the free-port, RSS and limit helpers.
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
  /** The script, relative to the repository root (or absolute). */
  readonly script: string;
  /** Run it through tsx's loader (TypeScript; the default), or with plain Node (a built bundle). */
  readonly tsx?: boolean;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Extra Node flags (e.g. `--cpu-prof`). */
  readonly nodeFlags?: readonly string[];
  /** A line on stdout matching this means ready; its match is returned. */
  readonly ready: RegExp;
  /** Give up after this many ms. */
  readonly timeoutMs?: number;
  /** Opens an IPC channel to the child (`child.process.send`, its `message` events). */
  readonly ipc?: boolean;
  /**
   * The open-files limit the child needs: when this process's soft limit is lower, the child is
   * started through `sh -c 'ulimit -n …'` (up to the hard limit; more than that throws).
   */
  readonly openFiles?: number;
}

/** This process's open-files limits (soft and hard), from /proc (Infinity for "unlimited"; NaN where /proc is missing). */
export function openFilesLimit(): { soft: number; hard: number } {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const [soft, hard] = (line ?? '').slice('Max open files'.length).trim().split(/\s+/);
    const value = (v: string | undefined) => (v === 'unlimited' ? Number.POSITIVE_INFINITY : Number(v));
    return { soft: value(soft), hard: value(hard) };
  } catch {
    return { soft: Number.NaN, hard: Number.NaN };
  }
}

/** The command that runs `args` with Node, its open-files limit raised to `openFiles` when needed. */
function commandOf(args: readonly string[], openFiles: number | undefined): { file: string; args: string[] } {
  const { soft, hard } = openFilesLimit();
  if (openFiles === undefined || Number.isNaN(soft) || soft >= openFiles) return { file: process.execPath, args: [...args] };
  if (hard < openFiles) throw new Error(`a child needs ${openFiles} open files but the hard limit is ${hard} (raise it: ulimit -Hn, /etc/security/limits.conf)`);
  return { file: '/bin/sh', args: ['-c', `ulimit -n ${openFiles} && exec "$0" "$@"`, process.execPath, ...args] };
}

/** Starts `script` with Node (+ tsx unless `tsx` is false) and resolves once it printed a line matching `ready`. */
export async function startChild(o: SpawnOptions): Promise<{ child: Child; match: RegExpExecArray }> {
  const command = commandOf([...(o.nodeFlags ?? []), ...(o.tsx === false ? [] : ['--import', tsxLoader]), fileURLToPath(new URL(o.script, `file://${repoRoot}`))], o.openFiles);
  const child = spawn(command.file, command.args, {
    cwd: o.cwd,
    env: o.env,
    stdio: o.ipc === true ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
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

/** A size line (kB) of `/proc/<pid>/status` in MB (NaN where /proc is missing). */
function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** The resident set size of `pid` in MB, from /proc (NaN where /proc is missing). */
export const rssMb = (pid: number): number => statusMb(pid, 'VmRSS');

/** The peak resident set size of `pid` since it started (VmHWM) in MB, from /proc (NaN where /proc is missing). */
export const peakRssMb = (pid: number): number => statusMb(pid, 'VmHWM');

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
