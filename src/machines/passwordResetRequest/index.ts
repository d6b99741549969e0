export * from './passwordResetRequest.machine';
export * from './passwordResetRequest.selectors';
