export * from './commandPalette.machine';
export * from './commandPalette.selectors';
