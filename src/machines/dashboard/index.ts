export * from './dashboard.machine';
export * from './dashboard.selectors';
