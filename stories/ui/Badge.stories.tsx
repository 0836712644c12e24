import type { Meta, StoryObj } from '@storybook/react-vite';
import { AdapterStatusBadge, Badge, TaskStatusBadge } from '../../src/web/ui/Badge/Badge';

const meta = { title: 'UI/Badge', component: Badge, args: { children: 'Badge' } } satisfies Meta<typeof Badge>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Tones: Story = {
  render: () => (
    <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
      <Badge tone="success">Success</Badge>
      <Badge tone="warning">Warning</Badge>
      <Badge tone="danger">Danger</Badge>
      <Badge tone="info">Info</Badge>
      <Badge tone="neutral">Neutral</Badge>
    </div>
  ),
};

/** Spec §4: 1 done, 2 warning, 3 error, 4 none (not configured). */
export const AdapterStatuses: Story = {
  render: () => (
    <div style={{ display: 'flex', gap: 8 }}>
      {[1, 2, 3, 4].map((status) => <AdapterStatusBadge key={status} status={status} />)}
    </div>
  ),
};

export const TaskStatuses: Story = {
  render: () => (
    <div style={{ display: 'flex', gap: 8 }}>
      {[1, 2, 3].map((status) => <TaskStatusBadge key={status} status={status} />)}
    </div>
  ),
};

export const UnknownStatus: Story = { render: () => <AdapterStatusBadge status={9} /> };
