import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromPromise } from 'xstate';
import { expect, fn, waitFor, within } from 'storybook/test';
import { footerMachine, type FooterContext } from '../../machines/footer';
import { MachineRegistryProvider } from './machineRegistry';
import { Footer } from './Footer';

const footerHtml = '<p>© 2025 星河科技 · <a href="https://beian.example.cn">京ICP备00000000号</a></p>';

const reads = fn<() => void>();
const frozen = footerMachine.provide({
  actors: { readStoredFooter: fromPromise<string>(() => new Promise<string>(() => undefined)) },
});
/** The stored footer appears only at the `n`-th read (1-based); fast polling for the story. */
const appearsAt = (n: number) =>
  footerMachine.provide({
    delays: { footerPoll: 20 },
    actors: {
      readStoredFooter: fromPromise<string>(() => {
        reads();
        return Promise.resolve(reads.mock.calls.length >= n ? footerHtml : '');
      }),
    },
  });

const seed = (value: 'reading' | 'waiting' | 'settled', context: FooterContext) => ({
  [footerMachine.id]: footerMachine.resolveState({ value, context }),
});

/*
 * Stories tagged '!dev' show a state this container's view already shows in its own stories: they
 * stay as tests of what the container hands its view and are left out of the sidebar and the docs page.
 */
const meta = {
  title: 'App/Footer',
  component: Footer,
  args: { systemName: '星河网关', version: 'v0.1.0' },
} satisfies Meta<typeof Footer>;
export default meta;
type Story = StoryObj<typeof meta>;

/** State `reading`: nothing stored yet, the default line. */
export const Reading: Story = {
  render: (args) => (
    <MachineRegistryProvider machines={[frozen]} snapshots={seed('reading', { footerHtml: '', rereads: 0 })}>
      <Footer {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('contentinfo')).toHaveTextContent('星河网关 v0.1.0');
  },
};

/** State `waiting` between re-reads: still the default line. */
export const Waiting: Story = {
  render: (args) => (
    <MachineRegistryProvider machines={[frozen]} snapshots={seed('waiting', { footerHtml: '', rereads: 2 })}>
      <Footer {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('link', { name: '基于 One API 构建' })).toBeVisible();
  },
};

/** State `settled` with the configured footer. */
export const SettledConfigured: Story = {
  tags: ['!dev', '!autodocs'],
  render: (args) => (
    <MachineRegistryProvider machines={[frozen]} snapshots={seed('settled', { footerHtml, rereads: 1 })}>
      <Footer {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('link', { name: '京ICP备00000000号' })).toBeVisible();
  },
};

/** State `settled` after every re-read found nothing: the default line for good. */
export const SettledDefault: Story = {
  tags: ['!dev', '!autodocs'],
  render: (args) => (
    <MachineRegistryProvider machines={[frozen]} snapshots={seed('settled', { footerHtml: '', rereads: 5 })}>
      <Footer {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('contentinfo')).toHaveTextContent('星河网关 v0.1.0');
  },
};

/** A live run: the status (and its footer) is stored just after mount; a re-read picks it up. */
export const LiveFooterArrivesLate: Story = {
  beforeEach: () => {
    reads.mockClear();
  },
  render: (args) => (
    <MachineRegistryProvider machines={[appearsAt(3)]}>
      <Footer {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(await c.findByRole('link', { name: '京ICP备00000000号' })).toBeVisible();
    await expect(reads).toHaveBeenCalledTimes(3);
    await new Promise((r) => setTimeout(r, 100));
    await waitFor(() => expect(reads).toHaveBeenCalledTimes(3));
  },
};
