export * from './pageContent.machine';
export * from './pageContent.selectors';
