export * from './channelForm.machine';
export * from './channelForm.selectors';
