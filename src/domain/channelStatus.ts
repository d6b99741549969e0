/*
 * Channel status (spec §4) and the default test model: the channel rules' constants, without the
 * channel codecs (./channel re-exports them), so ./constants can re-export them too.
 */

/** Channel status (spec §4): 2 and 3 both read 'disabled'; the tooltip tells them apart. */
export const channelStatusEnabled = 1;
export const channelStatusManuallyDisabled = 2;
export const channelStatusAutoDisabled = 3;

/** The statuses a channel can be put in or filtered by, in the filter's order. */
export const channelStatusValues = [channelStatusEnabled, channelStatusManuallyDisabled, channelStatusAutoDisabled] as const;
export type ChannelStatusValue = (typeof channelStatusValues)[number];

/** The status filter's option label of each status. */
export type ChannelStatusFilterKey = `channels.filter.status.${ChannelStatusValue}`;
export const channelStatusFilterKey = (status: ChannelStatusValue): ChannelStatusFilterKey => `channels.filter.status.${status}`;

export type ChannelStatusLabelKey = `domain.channelStatus.${'enabled' | 'disabled' | 'unknown'}`;
export type ChannelStatusTooltipKey = `domain.channelStatus.${'manuallyDisabled' | 'autoDisabled'}`;

/** A status with its badge: label, colour (a Chakra palette) and, for the disabled ones, a tooltip. */
export interface ChannelStatusEntry {
  readonly value: number;
  readonly labelKey: ChannelStatusLabelKey;
  readonly color: 'green' | 'red' | 'yellow' | 'gray';
  readonly tooltipKey?: ChannelStatusTooltipKey;
}

export const channelStatuses: readonly ChannelStatusEntry[] = [
  { value: channelStatusEnabled, labelKey: 'domain.channelStatus.enabled', color: 'green' },
  { value: channelStatusManuallyDisabled, labelKey: 'domain.channelStatus.disabled', color: 'red', tooltipKey: 'domain.channelStatus.manuallyDisabled' },
  { value: channelStatusAutoDisabled, labelKey: 'domain.channelStatus.disabled', color: 'yellow', tooltipKey: 'domain.channelStatus.autoDisabled' },
];

/** The channel status entry; anything but 1, 2, 3 is unknown. */
export const channelStatusOf = (status: number): ChannelStatusEntry =>
  channelStatuses.find((s) => s.value === status) ?? { value: status, labelKey: 'domain.channelStatus.unknown', color: 'gray' };

/** A disabled channel, by hand or by the program. */
export const isChannelDisabled = (status: number): boolean =>
  status === channelStatusManuallyDisabled || status === channelStatusAutoDisabled;

/** The enable/disable button: 1 becomes 2 (disable), any other status becomes 1 (enable). */
export const nextChannelStatus = (status: number): number =>
  status === channelStatusEnabled ? channelStatusManuallyDisabled : channelStatusEnabled;

/** The model a channel test prefers (one-api's default). */
export const defaultTestModel = 'gpt-3.5-turbo';
