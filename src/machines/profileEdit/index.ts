export * from './profileEdit.machine';
export * from './profileEdit.selectors';
