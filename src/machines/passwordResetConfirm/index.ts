export * from './passwordResetConfirm.machine';
export * from './passwordResetConfirm.selectors';
