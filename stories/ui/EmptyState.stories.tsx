import type { Meta, StoryObj } from '@storybook/react-vite';
import { Button } from '../../src/web/ui/Button/Button';
import { EmptyState } from '../../src/web/ui/EmptyState/EmptyState';

const meta = { title: 'UI/EmptyState', component: EmptyState } satisfies Meta<typeof EmptyState>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const WithAction: Story = { args: { title: 'No users yet', description: 'People you add here can sign in to Cartograph.', action: <Button>Create user</Button>, icon: '👤' } };
