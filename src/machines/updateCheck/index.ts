export * from './updateCheck.machine';
export * from './updateCheck.selectors';
