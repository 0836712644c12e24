import type { Meta, StoryObj } from '@storybook/react-vite';
import { ButtonLink } from '../../src/web/ui/Button/ButtonLink';

const meta = { title: 'UI/ButtonLink', component: ButtonLink, args: { href: '#/settings/user/create', children: 'Create user' } } satisfies Meta<typeof ButtonLink>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const Secondary: Story = { args: { variant: 'secondary', href: '#/settings/user', children: 'Back to list' } };
export const Small: Story = { args: { size: 'small' } };
