export * from './sessionWatch';
