export * from './logList.machine';
export * from './logList.selectors';
