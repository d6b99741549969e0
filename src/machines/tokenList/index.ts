export * from './tokenList.machine';
export * from './tokenList.selectors';
