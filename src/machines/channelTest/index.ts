export * from './channelTest.machine';
export * from './channelTest.selectors';
