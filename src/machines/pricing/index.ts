export * from './pricing.machine';
export * from './pricing.selectors';
