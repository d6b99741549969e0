export * from './logListPage.machine';
export * from './logListPage.selectors';
