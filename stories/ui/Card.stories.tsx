import type { Meta, StoryObj } from '@storybook/react-vite';
import { Button } from '../../src/web/ui/Button/Button';
import { Card } from '../../src/web/ui/Card/Card';
import { EmptyState } from '../../src/web/ui/EmptyState/EmptyState';

const meta = { title: 'UI/Card', component: Card, args: { title: 'Connection', children: 'dc01.corp.example.com, LDAPS on port 636.' } } satisfies Meta<typeof Card>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Filled: Story = { args: { actions: <Button variant="secondary" size="small">Edit</Button>, footer: <Button>Test connection</Button> } };
export const Empty: Story = { args: { title: 'Recent discoveries', children: <EmptyState description="No discovery has run yet." /> } };
export const WithoutTitle: Story = { args: { title: undefined } };
