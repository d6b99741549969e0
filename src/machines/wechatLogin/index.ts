export * from './wechatLogin.machine';
export * from './wechatLogin.selectors';
