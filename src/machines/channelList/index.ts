export * from './channelList.machine';
export * from './channelListActions.machine';
export * from './channelList.selectors';
