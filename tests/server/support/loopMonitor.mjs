// @ts-check
/**
 * Preloaded into a gateway started by the hostile-clients harness (`node --import <this>`), never
 * by the product: measures the process's own event-loop delay with monitorEventLoopDelay and
 * answers `{ maxMs, p99Ms, rssMb }` (then starts a new measurement) to each 'loop' IPC message.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
if (process.send !== undefined) {
  process.on('message', (message) => {
    if (message !== 'loop') return;
    const report = { maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6, rssMb: process.memoryUsage().rss / 1024 / 1024 };
    histogram.reset();
    process.send?.(report);
  });
  process.channel?.unref();
}
