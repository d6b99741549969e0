// Reads a V8 CPU profile (`node --cpu-prof`) and lists where the time went: self time per
// function and per source file, so the relay's hot spots can be named without a profiler UI.
import { readFileSync } from 'node:fs';

/** The parts of a .cpuprofile file used here. */
interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  }[];
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** A row of the summary: a label and its self time. */
export interface HotSpot {
  readonly label: string;
  readonly ms: number;
  readonly share: number;
}

/** Shortens a file URL to a path under the repository or under node_modules. */
function shortUrl(url: string): string {
  if (url === '') return '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) return url.slice(nm + 'node_modules/'.length);
  const repo = url.indexOf('/server/');
  if (repo >= 0) return url.slice(repo + 1);
  return url.replace(/^file:\/\//, '');
}

/** The monotonic clock in µs, the time base of V8's profile timestamps on Linux (CLOCK_MONOTONIC). */
export const monotonicMicros = (): number => Number(process.hrtime.bigint() / 1000n);

/**
 * Self time per function and per file, largest first (`top` rows each), over the samples taken
 * at or after `sinceUs` (a `monotonicMicros()` reading: skips start-up). Idle time is left out of
 * the total and reported apart.
 */
export function summarizeProfile(path: string, top = 25, sinceUs = 0): { total: number; idle: number; functions: HotSpot[]; files: HotSpot[] } {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const fn = new Map<string, number>();
  const file = new Map<string, number>();
  let total = 0;
  let idle = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    at += us;
    const frame = byId.get(id);
    if (frame === undefined || at < sinceUs) return;
    if (frame.functionName === '(idle)') {
      idle += us;
      return;
    }
    total += us;
    const where = frame.url === '' && frame.functionName.startsWith('(') ? frame.functionName : shortUrl(frame.url);
    const name = `${frame.functionName === '' ? '(anonymous)' : frame.functionName}  ${where}${frame.url === '' ? '' : `:${frame.lineNumber + 1}`}`;
    fn.set(name, (fn.get(name) ?? 0) + us);
    file.set(where, (file.get(where) ?? 0) + us);
  });
  const rows = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([label, us]) => ({ label, ms: us / 1000, share: total === 0 ? 0 : us / total }));
  return { total: total / 1000, idle: idle / 1000, functions: rows(fn), files: rows(file) };
}
