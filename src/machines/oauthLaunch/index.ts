export * from './oauthLaunch.machine';
export * from './oauthLaunch.selectors';
