export * from './pageRelay';
