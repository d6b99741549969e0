export * from './redemptionForm.machine';
export * from './redemptionForm.selectors';
