export * from './keyCopy.machine';
export * from './keyCopy.selectors';
