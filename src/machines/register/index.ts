export * from './register.machine';
export * from './register.selectors';
