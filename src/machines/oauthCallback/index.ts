export * from './oauthCallback.machine';
export * from './oauthCallback.selectors';
