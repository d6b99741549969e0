export * from './sessionWatch';
export * from './awaitSession';
export * from './signInHandOver';
export * from './sessionRecovery';
