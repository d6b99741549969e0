export * from './userList.machine';
export * from './userList.selectors';
