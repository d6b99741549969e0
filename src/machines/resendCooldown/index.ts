export * from './resendCooldown.machine';
export * from './resendCooldown.selectors';
