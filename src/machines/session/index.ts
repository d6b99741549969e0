export * from './session.machine';
export * from './session.selectors';
