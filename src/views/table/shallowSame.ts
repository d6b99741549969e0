/**
 * The same props, compared one by one (as `memo` does by default): for a `memo` comparison that
 * skips some states (a closed dialog) and compares the others as usual.
 */
export function shallowSame<P extends object>(was: P, now: P): boolean {
  const keys = Object.keys(was) as (keyof P)[];
  return keys.length === Object.keys(now).length && keys.every((k) => Object.is(was[k], now[k]));
}
