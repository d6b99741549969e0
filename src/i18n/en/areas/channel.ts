import type { messages as zh } from '../../zh/areas/channel';
import { channels } from '../channels';
import { channelTest } from '../channelTest';
import { channelForm } from '../channelForm';
import { table } from '../table';
import { validation } from '../validation';
import { domain } from '../domain';

/** /channel and its add, edit and clone forms. Exactly the zh area's keys. */
export const messages: Record<keyof typeof zh, string> = {
  ...channels,
  ...channelTest,
  ...channelForm,
  ...table,
  ...validation,
  ...domain,
};
