export * from './preferences.machine';
export * from './preferences.selectors';
