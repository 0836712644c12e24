import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, within } from 'storybook/test';
import { ErrorState } from '../../src/web/ui/ErrorState/ErrorState';

const meta = { title: 'UI/ErrorState', component: ErrorState } satisfies Meta<typeof ErrorState>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const WithRetry: Story = {
  args: { message: 'The server did not answer in time.', onRetry: fn() },
  play: async ({ canvasElement, args }) => {
    within(canvasElement).getByRole('button', { name: 'Try again' }).click();
    await expect(args.onRetry).toHaveBeenCalledTimes(1);
  },
};
export const Retrying: Story = { args: { message: 'The server did not answer in time.', onRetry: fn(), retrying: true } };
export const MultiLine: Story = { args: { title: 'Internal server error', message: 'The import failed.\nRow 12: the IP address is not valid.' } };
