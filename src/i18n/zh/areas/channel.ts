import { channels } from '../channels';
import { channelTest } from '../channelTest';
import { channelForm } from '../channelForm';
import { table } from '../table';
import { validation } from '../validation';
import { domain } from '../domain';

/** /channel and its add, edit and clone forms. */
export const messages = {
  ...channels,
  ...channelTest,
  ...channelForm,
  ...table,
  ...validation,
  ...domain,
} as const;
