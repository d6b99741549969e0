// The clock the relay bench's processes share: CLOCK_MONOTONIC (libuv's hrtime, which
// performance.now() also reads), in microseconds. A time taken in one process (the fake upstream
// stamping a token as it writes it) can be compared with one taken in another (the load generator
// reading it), on the same machine.

/** hrtime (µs) less performance.now() (µs): constant for the process's life, read once. */
const offsetUs = Number(process.hrtime.bigint()) / 1000 - performance.now() * 1000;

/** The monotonic clock in µs, without a bigint per reading. */
export const nowMicros = (): number => performance.now() * 1000 + offsetUs;
