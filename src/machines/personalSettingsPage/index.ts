export * from './personalSettingsPage.machine';
