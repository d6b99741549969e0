export * from './channelListPage.machine';
