export * from './listPage.machine';
