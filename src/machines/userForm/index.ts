export * from './userForm.machine';
export * from './userForm.selectors';
