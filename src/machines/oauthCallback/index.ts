export * from './oauthCallback.machine';
export * from './oauthCallback.selectors';
export * from './signedIn';
