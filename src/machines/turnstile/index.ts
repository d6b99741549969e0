export * from './turnstile.machine';
export * from './turnstile.selectors';
