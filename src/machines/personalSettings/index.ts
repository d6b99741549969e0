export * from './personalSettings.machine';
export * from './selfDelete.machine';
export * from './wechatBind.machine';
export * from './emailBind.machine';
export * from './personalSettings.selectors';
