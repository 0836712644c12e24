import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import userSchema from '../../../schemas/entities/user.json';
import { routeByPath } from '../../../src/web/app/routeTable';
import { GenericListPage } from '../../../src/web/renderers/list/GenericListPage';
import { defaultPageSize, resourceListQuery } from '../../../src/web/renderers/list/listQuery';
import { entitySchemaQuery } from '../../../src/web/renderers/schema/entitySchema';
import { withMemoryRouter } from '../withMemoryRouter';
import { withSeededQueries } from '../seededQueries';

const route = routeByPath('/settings/user')!;
const schemaKey = entitySchemaQuery('cartograph:entities/user').queryKey;
const firstPageKey = resourceListQuery('/users/users', { page: 1, size: defaultPageSize }).queryKey;

const meta = {
  title: 'Renderers/GenericListPage',
  component: GenericListPage,
  // The page keeps its view in the URL: it runs inside a router, itself inside the seeded query cache.
  decorators: [withMemoryRouter, withSeededQueries],
  args: { route, schema: route.schema },
} satisfies Meta<typeof GenericListPage>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The page of the `generic:list` route /settings/user, as the router shows it (signed out here: no links). */
export const SettingsUsers: Story = {
  parameters: {
    seeds: [
      { queryKey: schemaKey, data: userSchema },
      { queryKey: firstPageKey, data: { count: 1, next: null, previous: null, results: [{ id: 1, username: 'admin', email: 'admin@example.com', first_name: 'Cartograph', last_name: 'Administrator', is_active: true }] } },
    ],
  },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('heading', { level: 1, name: 'Users' })).toBeTruthy();
  },
};

/** A route naming a schema that does not exist. */
export const UnknownSchema: Story = {
  args: { schema: 'cartograph:entities/missing' },
  parameters: { seeds: [{ queryKey: entitySchemaQuery('cartograph:entities/missing').queryKey, error: new Error('Unknown schema: cartograph:entities/missing') }] },
  play: async ({ canvasElement }) => {
    await expect((await within(canvasElement).findByRole('alert')).textContent).toContain('Unknown schema');
  },
};
