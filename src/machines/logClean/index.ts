export * from './logClean.machine';
export * from './logClean.selectors';
