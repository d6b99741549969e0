// @ts-check
/**
 * Preloaded by the relay bench into the processes it measures (`node --import <this file>`, with an
 * IPC channel): the event loop's delay, read with perf_hooks' monitorEventLoopDelay and reported
 * over the IPC channel only, so the gateway measured needs no debug route and no change. Messages:
 * `{ probe: 'reset' }` starts a new window, `{ probe: 'read' }` answers `{ probe: 'loop', ... }`
 * with the window's delays in ms. Without an IPC channel this file does nothing.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

if (typeof process.send === 'function') {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const ms = (/** @type {number} */ ns) => ns / 1e6;
  process.on('message', (/** @type {unknown} */ message) => {
    if (typeof message !== 'object' || message === null || !('probe' in message)) return;
    if (message.probe === 'reset') {
      histogram.reset();
      process.send?.({ probe: 'reset' });
    } else if (message.probe === 'read') {
      process.send?.({
        probe: 'loop',
        count: histogram.count,
        p50: ms(histogram.percentile(50)),
        p99: ms(histogram.percentile(99)),
        max: ms(histogram.max),
        mean: ms(histogram.mean),
      });
    }
  });
  // The channel must not keep the process alive (it exits as it would without the probe).
  process.channel?.unref();
}
