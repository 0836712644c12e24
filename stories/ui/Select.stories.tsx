import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { Select, type SelectProps } from '../../src/web/ui/Select/Select';

function Stateful(props: Omit<SelectProps, 'onValueChange'>) {
  const [value, setValue] = useState(props.value);
  return <Select {...props} value={value} onValueChange={setValue} />;
}

const options = [
  { value: 'ldaps', label: 'LDAPS (port 636)' },
  { value: 'starttls', label: 'StartTLS (port 389)' },
  { value: 'plain', label: 'Plain (lab only)', disabled: true },
];

const meta = { title: 'UI/Select', component: Stateful, args: { label: 'Connection security', options, value: '' } } satisfies Meta<typeof Stateful>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = { args: { placeholder: 'Choose…' } };
export const Filled: Story = { args: { value: 'ldaps', message: 'TLS from the first byte.' } };
export const WithError: Story = { args: { placeholder: 'Choose…', required: true, error: 'The Connection security field is required.' } };
export const Disabled: Story = { args: { value: 'starttls', disabled: true } };
