import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import deviceSchema from '../../../schemas/entities/device.json';
import userSchema from '../../../schemas/entities/user.json';
import { ApiError } from '../../../src/web/app/http';
import { entityLinks } from '../../../src/web/renderers/list/entityRoutes';
import { defaultPageSize, resourceListQuery } from '../../../src/web/renderers/list/listQuery';
import { SchemaList } from '../../../src/web/renderers/list/SchemaList';
import type { EntitySchema } from '../../../src/web/renderers/schema/entitySchema';
import { withSeededQueries, type QuerySeed } from '../seededQueries';

const schema = userSchema as unknown as EntitySchema;
const firstPageKey = resourceListQuery('/users/users', { page: 1, size: defaultPageSize }).queryKey;
const users = [
  { id: 1, username: 'admin', email: 'admin@example.com', first_name: 'Cartograph', last_name: 'Administrator', is_active: true },
  { id: 2, username: 'jane.doe', email: 'jane.doe@example.com', first_name: 'Jane', last_name: 'Doe', is_active: true },
  { id: 3, username: 'john.roe', email: '', first_name: 'John', last_name: 'Roe', is_active: false },
];
const page = (results: unknown[], count = results.length) => ({ count, next: null, previous: null, results });
const seeds = (...list: QuerySeed[]) => ({ seeds: list });

const meta = {
  title: 'Renderers/SchemaList',
  component: SchemaList,
  decorators: [withSeededQueries],
  args: { schema, links: entityLinks('cartograph:entities/user', ['users.view_user', 'users.add_user', 'users.change_user']) },
} satisfies Meta<typeof SchemaList>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The users list of /settings/user: columns from the schema's x-list, rows linked to their edit form. */
export const Filled: Story = {
  parameters: seeds({ queryKey: firstPageKey, data: page(users, 153) }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('link', { name: 'jane.doe' }).getAttribute('href')).toBe('#/settings/user/2/edit');
    await expect(canvas.getByText('1–50 of 153')).toBeTruthy();
  },
};

export const Empty: Story = { parameters: seeds({ queryKey: firstPageKey, data: page([]) }) };

export const Failed: Story = {
  parameters: seeds({ queryKey: firstPageKey, error: new ApiError(500, { detail: 'Database unavailable' }, {}) }),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('alert').textContent).toContain('Database unavailable');
  },
};

/** A user with view permission only: no create button, no row links. */
export const ReadOnly: Story = {
  args: { links: entityLinks('cartograph:entities/user', ['users.view_user']) },
  parameters: seeds({ queryKey: firstPageKey, data: page(users) }),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).queryByRole('link')).toBeNull();
  },
};

/** An entity without x-resource cannot be listed generically. */
export const WithoutResource: Story = { args: { schema: deviceSchema as unknown as EntitySchema } };
