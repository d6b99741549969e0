export * from './tokenListPage.machine';
