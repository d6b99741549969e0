import type { ChannelLastTest, ChannelRow } from './channel';
import { responseBandOf, type ResponseBand } from './format';

/*
 * The test state of a channel row (the response-time cell of the channel list). Apart from
 * src/domain/channel because it reads the response-time bands of src/domain/format.
 */

/** What the response-time cell shows for a row. */
export type ChannelTestState =
  | { readonly kind: 'untested' }
  /** `message` null: the server only says the last single test failed (0 ms with a test time). */
  | { readonly kind: 'failed'; readonly message: string | null; readonly test_time: number }
  | { readonly kind: 'passed'; readonly band: Exclude<ResponseBand, 'untested'>; readonly ms: number; readonly test_time: number };

/**
 * The row's test state: the newest result this page saw (the live run's, else the one kept on the
 * row) decides; without one, the listed fields: `test_time` 0 is never tested, `response_time` 0
 * with a `test_time` is a failed single test (contract §2.1.3), anything else passed in its band.
 */
export function channelTestStateOf(row: ChannelRow, live?: Pick<ChannelLastTest, 'success' | 'message' | 'response_time' | 'test_time'>): ChannelTestState {
  const kept = row.last_test;
  const seen = live !== undefined && (kept === undefined || live.test_time >= kept.test_time) ? live : kept;
  if (seen !== undefined) {
    if (!seen.success) return { kind: 'failed', message: seen.message, test_time: seen.test_time };
    const ms = Math.max(1, seen.response_time);
    return { kind: 'passed', band: passedBand(ms), ms, test_time: seen.test_time };
  }
  const ms = row.response_time ?? 0;
  const testTime = row.test_time ?? 0;
  if (ms === 0) return testTime > 0 ? { kind: 'failed', message: null, test_time: testTime } : { kind: 'untested' };
  return { kind: 'passed', band: passedBand(ms), ms, test_time: testTime };
}

const passedBand = (ms: number): Exclude<ResponseBand, 'untested'> => {
  const band = responseBandOf(ms);
  return band === 'untested' ? 'fast' : band;
};
