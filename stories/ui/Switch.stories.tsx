import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fireEvent, waitFor, within } from 'storybook/test';
import { Switch, type SwitchProps } from '../../src/web/ui/Switch/Switch';

function Stateful(props: Omit<SwitchProps, 'onCheckedChange'>) {
  const [checked, setChecked] = useState(props.checked);
  return <Switch {...props} checked={checked} onCheckedChange={setChecked} />;
}

const meta = { title: 'UI/Switch', component: Stateful, args: { label: 'Active', checked: false } } satisfies Meta<typeof Stateful>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Off: Story = {
  play: async ({ canvasElement }) => {
    const control = within(canvasElement).getByRole('switch', { name: 'Active' });
    fireEvent.click(control);
    await waitFor(() => expect(control.getAttribute('aria-checked')).toBe('true'));
  },
};
export const On: Story = { args: { checked: true, message: 'Inactive users cannot sign in.' } };
export const Disabled: Story = { args: { checked: true, disabled: true } };
