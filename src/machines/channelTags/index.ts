export * from './channelTags.machine';
export * from './channelTags.selectors';
