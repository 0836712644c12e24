import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fireEvent, waitFor, within } from 'storybook/test';
import { Checkbox, type CheckboxProps } from '../../src/web/ui/Checkbox/Checkbox';

function Stateful(props: Omit<CheckboxProps, 'onCheckedChange'>) {
  const [checked, setChecked] = useState(props.checked);
  return <Checkbox {...props} checked={checked} onCheckedChange={setChecked} />;
}

const meta = { title: 'UI/Checkbox', component: Stateful, args: { label: 'Verify TLS certificate', checked: false } } satisfies Meta<typeof Stateful>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Unchecked: Story = {
  play: async ({ canvasElement }) => {
    const box = within(canvasElement).getByRole('checkbox', { name: 'Verify TLS certificate' }) as HTMLInputElement;
    fireEvent.click(box);
    await waitFor(() => expect(box.checked).toBe(true));
  },
};
export const Checked: Story = { args: { checked: true, message: 'Turn off only for a lab system.' } };
export const Indeterminate: Story = { args: { label: 'All adapters', indeterminate: true } };
export const WithError: Story = { args: { label: 'I understand the password is sent in clear text', error: 'Confirm to use a plain connection.' } };
export const Disabled: Story = { args: { checked: true, disabled: true } };
