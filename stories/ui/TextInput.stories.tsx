import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fireEvent, waitFor, within } from 'storybook/test';
import { TextInput, type TextInputProps } from '../../src/web/ui/TextInput/TextInput';

/** Keeps the value in state so the story can be typed into. */
function Stateful(props: Omit<TextInputProps, 'onValueChange'>) {
  const [value, setValue] = useState(props.value);
  return <TextInput {...props} value={value} onValueChange={setValue} />;
}

const meta = {
  title: 'UI/TextInput',
  component: Stateful,
  args: { label: 'Username', value: '' },
} satisfies Meta<typeof Stateful>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = {
  args: { placeholder: 'jane.doe', message: 'Letters, digits and @ . + - _ only.' },
  play: async ({ canvasElement }) => {
    const input = within(canvasElement).getByLabelText('Username') as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'jane' } });
    await waitFor(() => expect(input.value).toBe('jane'));
  },
};

export const Filled: Story = { args: { value: 'jane.doe' } };

export const Required: Story = { args: { required: true } };

export const WithError: Story = {
  args: { label: 'Email', value: 'jane@', error: 'The Email field must be a valid email.' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
  },
};

export const ServerErrors: Story = { args: { label: 'Username', value: 'admin', error: ['A user with that username already exists.', 'Choose another name.'] } };

export const Disabled: Story = { args: { value: 'ldap.user', disabled: true, message: 'LDAP users are managed in the directory.' } };

export const Password: Story = { args: { label: 'Password', type: 'password', value: 'a long passphrase', autoComplete: 'new-password' } };

export const DebouncedSearch: Story = { args: { label: 'Search', type: 'search', debounce: 300, placeholder: 'Search users' } };
