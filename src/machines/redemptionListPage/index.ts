export * from './redemptionListPage.machine';
