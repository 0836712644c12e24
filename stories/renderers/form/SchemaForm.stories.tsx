import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import groupSchema from '../../../schemas/entities/group.json';
import userSchema from '../../../schemas/entities/user.json';
import { formModelOf, initialValuesOf, type EntitySchema } from '../../../src/web/renderers/form/formSchema';
import { SchemaForm } from '../../../src/web/renderers/form/SchemaForm';
import { withSeededQueries } from '../seededQueries';

const userModel = formModelOf(userSchema as unknown as EntitySchema, 'create');
const editModel = formModelOf(userSchema as unknown as EntitySchema, 'edit');
const groupsSeed = { queryKey: ['/users/groups', { size: 1000, ordering: 'name' }], data: { count: 3, next: null, previous: null, results: [{ id: 1, name: 'Administrators' }, { id: 2, name: 'Analysts' }, { id: 3, name: 'Viewers' }] } };
const usersSeed = { queryKey: ['/users/users', { size: 1000, ordering: 'username' }], data: { count: 2, next: null, previous: null, results: [{ id: 1, username: 'admin', name: 'Cartograph Administrator' }, { id: 2, username: 'jane.doe', name: 'Jane Doe' }] } };
const permissionsSeed = {
  queryKey: ['/users/permissions', { size: 1000 }],
  data: {
    count: 4, next: null, previous: null,
    results: [
      { id: 1, name: 'Can view user', codename: 'view_user', app: 'users' },
      { id: 2, name: 'Can add user', codename: 'add_user', app: 'users' },
      { id: 3, name: 'Can view group', codename: 'view_group', app: 'auth' },
      { id: 4, name: 'Can view connection', codename: 'view_connection', app: 'adapters' },
    ],
  },
};

const meta = {
  title: 'Renderers/SchemaForm',
  component: SchemaForm,
  decorators: [withSeededQueries],
  parameters: { seeds: [groupsSeed, usersSeed, permissionsSeed] },
  args: { model: userModel, onSubmit: fn(async () => undefined) },
} satisfies Meta<typeof SchemaForm>;
export default meta;
type Story = StoryObj<typeof meta>;

/** /settings/user/create: the user entity schema as a form. Leaving the username empty says so on blur. */
export const Empty: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByLabelText(/^Username/));
    await userEvent.tab();
    await expect(await canvas.findByText('The Username field is required.')).toBeTruthy();
  },
};

/** /settings/user/{id}/edit with the answer of GET /users/users/{id}. */
export const Filled: Story = {
  args: {
    model: editModel,
    initialValues: initialValuesOf(editModel, { id: 2, username: 'jane.doe', email: 'jane.doe@example.com', first_name: 'Jane', last_name: 'Doe', is_active: true, groups: [{ id: 2, name: 'Analysts' }] }),
  },
  play: async ({ canvasElement }) => {
    await expect((within(canvasElement).getByLabelText('Analysts') as HTMLInputElement).checked).toBe(true);
  },
};

/** Field errors answered by the server (400), listed under their fields. */
export const ServerErrors: Story = {
  args: { serverErrors: { username: ['A user with that username already exists.'], password: ['This password is too short. It must contain at least 12 characters.'] } },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('A user with that username already exists.')).toBeTruthy();
  },
};

export const Disabled: Story = { args: { disabled: true } };

/** /settings/group/create: the permission picker grouped by app, and adapter access. */
export const Group: Story = {
  args: { model: formModelOf(groupSchema as unknown as EntitySchema, 'create') },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByLabelText('Users (0/2)'));
    await expect(canvas.getByLabelText('Users (2/2)')).toBeTruthy();
    await expect(canvas.getByLabelText('jane.doe (Jane Doe)')).toBeTruthy();
  },
};
