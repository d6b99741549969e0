import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, within } from 'storybook/test';
import { TwoFactorSettingsView } from './TwoFactorSettingsView';

/** The two-factor section as a pure view (the machine states are in TwoFactorSettings.stories.tsx). */
const meta = {
  title: 'Setting/TwoFactorSettingsView',
  component: TwoFactorSettingsView,
  args: {
    panel: 'status',
    status: { enabled: false, recovery_codes_left: 0, required: false },
    setup: null,
    recoveryCodes: [],
    code: '',
    password: '',
    error: null,
    busy: false,
    onReload: fn(),
    onSetup: fn(),
    onConfirmSetup: fn(),
    onDisableOpen: fn(),
    onDisableConfirm: fn(),
    onRegenerateOpen: fn(),
    onRegenerateConfirm: fn(),
    onCancel: fn(),
    onCodeChange: fn(),
    onPasswordChange: fn(),
    onCopyCodes: fn(),
    onDismissCodes: fn(),
  },
} satisfies Meta<typeof TwoFactorSettingsView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Off. */
export const Off: Story = {};

/** On, with recovery codes left. */
export const On: Story = { args: { status: { enabled: true, recovery_codes_left: 3, required: false } } };

/** The setup: secret and URI once. */
export const Setup: Story = {
  args: {
    panel: 'setup',
    setup: { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', uri: 'otpauth://totp/One%20API:alice?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' },
  },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP')).toBeVisible();
  },
};
