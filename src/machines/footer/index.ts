export * from './footer.machine';
export * from './footer.selectors';
