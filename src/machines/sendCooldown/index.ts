export * from './sendCooldown.machine';
export * from './sendCooldown.selectors';
