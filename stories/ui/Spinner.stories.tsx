import type { Meta, StoryObj } from '@storybook/react-vite';
import { Spinner } from '../../src/web/ui/Spinner/Spinner';

const meta = { title: 'UI/Spinner', component: Spinner } satisfies Meta<typeof Spinner>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Medium: Story = {};
export const Sizes: Story = {
  render: () => (
    <div style={{ display: 'flex', gap: 16, alignItems: 'center' }}>
      <Spinner size="small" label="Loading small" />
      <Spinner size="medium" label="Loading medium" />
      <Spinner size="large" label="Loading large" />
    </div>
  ),
};
