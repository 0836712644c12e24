import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fireEvent, waitFor, within } from 'storybook/test';
import { Button } from '../../src/web/ui/Button/Button';
import { Dialog, type DialogProps } from '../../src/web/ui/Dialog/Dialog';
import { TextInput } from '../../src/web/ui/TextInput/TextInput';

/** A page button that opens the dialog; the dialog starts open when `open` is set. */
function WithTrigger(props: Omit<DialogProps, 'onClose'>) {
  const [open, setOpen] = useState(props.open);
  const [name, setName] = useState('');
  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)}>Delete user</Button>
      <Dialog
        {...props}
        open={open}
        onClose={() => setOpen(false)}
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)}>Cancel</Button>
            <Button variant="danger" disabled={name !== 'jane.doe'}>Delete</Button>
          </>
        }
      >
        <TextInput label="Type jane.doe to confirm" value={name} onValueChange={setName} />
      </Dialog>
    </>
  );
}

const meta = {
  title: 'UI/Dialog',
  component: WithTrigger,
  args: { open: false, title: 'Delete jane.doe?', description: 'The user can no longer sign in. This cannot be undone.' },
} satisfies Meta<typeof WithTrigger>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Closed: Story = {
  play: async ({ canvasElement }) => {
    fireEvent.click(within(canvasElement).getByRole('button', { name: 'Delete user' }));
    const dialog = await within(document.body).findByRole('dialog', { name: 'Delete jane.doe?' });
    await expect(dialog.getAttribute('aria-modal')).toBe('true');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(within(document.body).queryByRole('dialog')).toBeNull());
  },
};
export const Open: Story = { args: { open: true } };
export const AlertDialog: Story = { args: { open: true, alert: true, size: 'small' } };
export const NotDismissible: Story = { args: { open: true, dismissible: false, title: 'Importing devices…', description: 'Keep this window open until the import ends.' } };
