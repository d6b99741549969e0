import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/**
 * The gateway as a child process (`server/main.ts` through tsx) on a fixed port kept across
 * restarts, for the tests that kill it (crash-recovery, relay-crash): start waits for
 * `/api/status`, stop sends a signal and waits for the exit. Its output is kept (the last 20,000
 * characters) for failure messages.
 */
export class GatewayProcess {
  child: ChildProcess | null = null;
  output = '';
  constructor(
    readonly port: number,
    readonly env: Readonly<Record<string, string>>,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts the gateway and waits until it answers (a busy machine compiles the server slowly). */
  async start(timeoutMs = 60_000): Promise<void> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: process.cwd(),
      env: { ...process.env, ...this.env, PORT: String(this.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const collect = (chunk: Buffer): void => {
      this.output = (this.output + chunk.toString()).slice(-20_000);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`gateway exited at start (${child.exitCode}):\n${this.output}`);
      try {
        const res = await fetch(`${this.url}/api/status`);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`gateway did not start:\n${this.output}`);
  }

  /** Sends `signal` and waits for the exit; returns the exit code (null when killed). */
  async stop(signal: NodeJS.Signals): Promise<number | null> {
    const child = this.child;
    if (child === null) return null;
    this.child = null;
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    const exited = once(child, 'exit');
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const [code] = (await exited) as [number | null];
    clearTimeout(timer);
    return code;
  }
}
