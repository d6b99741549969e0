import type { PNG } from 'pngjs';

/** How many pixels of two screenshots differ (any channel), or -1 when their sizes differ. */
export function differingPixels(a: PNG, b: PNG): number {
  if (a.width !== b.width || a.height !== b.height) return -1;
  let differing = 0;
  for (let i = 0; i < a.data.length; i += 4) if (a.data.readUInt32LE(i) !== b.data.readUInt32LE(i)) differing++;
  return differing;
}
