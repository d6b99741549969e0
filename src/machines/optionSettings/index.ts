export * from './optionSettings.machine';
export * from './optionSettings.selectors';
