import type { Meta, StoryObj } from '@storybook/react-vite';
import { Badge } from '../../src/web/ui/Badge/Badge';
import { Button } from '../../src/web/ui/Button/Button';
import { PageHeader } from '../../src/web/ui/PageHeader/PageHeader';

const meta = { title: 'UI/PageHeader', component: PageHeader, args: { title: 'Users' } } satisfies Meta<typeof PageHeader>;
export default meta;
type Story = StoryObj<typeof meta>;

export const TitleOnly: Story = {};
export const Full: Story = {
  args: {
    description: 'People who sign in to Cartograph.',
    meta: <Badge tone="info">42</Badge>,
    actions: (
      <>
        <Button variant="secondary">Export</Button>
        <Button>Create user</Button>
      </>
    ),
  },
};
