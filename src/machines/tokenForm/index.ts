export * from './tokenForm.machine';
export * from './tokenForm.selectors';
