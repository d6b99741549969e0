export * from './topUp.machine';
export * from './topUp.selectors';
