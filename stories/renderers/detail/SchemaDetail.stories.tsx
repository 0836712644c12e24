import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import userSchema from '../../../schemas/entities/user.json';
import { ApiError } from '../../../src/web/app/http';
import { SchemaDetail } from '../../../src/web/renderers/detail/SchemaDetail';
import { entityLinks } from '../../../src/web/renderers/list/entityRoutes';
import { resourceItemQuery } from '../../../src/web/renderers/list/listQuery';
import type { EntitySchema } from '../../../src/web/renderers/schema/entitySchema';
import { withSeededQueries } from '../seededQueries';

const schema = userSchema as unknown as EntitySchema;
const jane = {
  id: 2,
  username: 'jane.doe',
  email: 'jane.doe@example.com',
  first_name: 'Jane',
  last_name: 'Doe',
  name: 'Jane Doe',
  is_active: true,
  is_ldap: false,
  groups: [{ id: 2, name: 'Analysts' }, { id: 3, name: 'Auditors' }],
};

const meta = {
  title: 'Renderers/SchemaDetail',
  component: SchemaDetail,
  decorators: [withSeededQueries],
  args: { schema, id: 2, links: entityLinks('cartograph:entities/user', ['users.view_user', 'users.change_user']) },
} satisfies Meta<typeof SchemaDetail>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Filled: Story = {
  parameters: { seeds: [{ queryKey: resourceItemQuery('/users/users', 2).queryKey, data: jane }] },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { level: 1, name: 'Jane Doe' })).toBeTruthy();
    await expect(canvas.getByText('Analysts, Auditors')).toBeTruthy();
  },
};

/** Fields without a value show a dash. */
export const Sparse: Story = { parameters: { seeds: [{ queryKey: resourceItemQuery('/users/users', 2).queryKey, data: { id: 2, username: 'jane.doe' } }] } };

export const Failed: Story = { parameters: { seeds: [{ queryKey: resourceItemQuery('/users/users', 2).queryKey, error: new ApiError(404, { detail: 'Not found.' }, {}) }] } };

/** Without the change permission there is no Edit button. */
export const ReadOnly: Story = {
  args: { links: entityLinks('cartograph:entities/user', ['users.view_user']) },
  parameters: { seeds: [{ queryKey: resourceItemQuery('/users/users', 2).queryKey, data: jane }] },
};
