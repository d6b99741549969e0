export * from './sessionWatch';
export * from './awaitSession';
