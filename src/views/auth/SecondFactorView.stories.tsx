import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { SecondFactorView } from './SecondFactorView';

/** The login's second step as a pure view (the container's states are in LoginPage.stories.tsx). */
const meta = {
  title: 'Auth/SecondFactorView',
  component: SecondFactorView,
  args: { recovery: false, error: null, verifying: false, onSubmit: fn(), onToggleMode: fn(), onCancel: fn() },
} satisfies Meta<typeof SecondFactorView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The TOTP code field. */
export const Code: Story = {};

/** A recovery code instead. */
export const RecoveryCode: Story = { args: { recovery: true } };

/** A refusal named under the field. */
export const Refused: Story = { args: { error: { key: 'twoFactor.error.codeInvalid' } } };

/** Interaction: the typed code is handed on; the mode switch and the way back are buttons. */
export const SubmitInteraction: Story = {
  tags: ['interaction'],
  play: async ({ canvasElement, args }) => {
    const c = within(canvasElement);
    await userEvent.type(c.getByLabelText('验证码'), '123456');
    await userEvent.click(c.getByRole('button', { name: '验证' }));
    await expect(args.onSubmit).toHaveBeenCalledWith('123456');
    await userEvent.click(c.getByRole('button', { name: '改用恢复码' }));
    await expect(args.onToggleMode).toHaveBeenCalled();
  },
};
