import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fireEvent, waitFor, within } from 'storybook/test';
import { Tabs, type TabItem } from '../../src/web/ui/Tabs/Tabs';

const tabs: TabItem[] = [
  { id: 'password', label: 'Password', content: 'Change your password.' },
  { id: 'otp', label: 'Two-factor', content: 'Scan the QR code with an authenticator app.' },
  { id: 'tokens', label: 'API tokens', content: 'Tokens let scripts call the API as you.' },
];

const meta = { title: 'UI/Tabs', component: Tabs, args: { tabs, label: 'Account settings' } } satisfies Meta<typeof Tabs>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    fireEvent.keyDown(canvas.getByRole('tablist'), { key: 'ArrowRight' });
    await waitFor(() => expect(canvas.getByRole('tabpanel').textContent).toBe('Scan the QR code with an authenticator app.'));
  },
};
export const SecondOpen: Story = { args: { defaultValue: 'tokens' } };
export const WithDisabledTab: Story = { args: { tabs: [tabs[0], { ...tabs[1], disabled: true }, tabs[2]] } };
