export * from './redemptionList.machine';
export * from './redemptionList.selectors';
