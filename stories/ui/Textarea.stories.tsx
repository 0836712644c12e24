import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { Textarea, type TextareaProps } from '../../src/web/ui/Textarea/Textarea';

function Stateful(props: Omit<TextareaProps, 'onValueChange'>) {
  const [value, setValue] = useState(props.value);
  return <Textarea {...props} value={value} onValueChange={setValue} />;
}

const meta = { title: 'UI/Textarea', component: Stateful, args: { label: 'Description', value: '' } } satisfies Meta<typeof Stateful>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = { args: { message: 'Shown on the dashboard.' } };
export const Filled: Story = { args: { value: 'Servers of the payment platform.\nOwned by the platform team.' } };
export const WithError: Story = { args: { label: 'Custom CA certificate (PEM)', monospace: true, value: 'not a certificate', error: 'Not a PEM certificate.' } };
export const Disabled: Story = { args: { value: 'Read only', disabled: true } };
