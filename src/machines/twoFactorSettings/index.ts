export * from './twoFactorSettings.machine';
export * from './twoFactorSettings.selectors';
