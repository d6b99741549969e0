export * from './table.machine';
export * from './table.selectors';
