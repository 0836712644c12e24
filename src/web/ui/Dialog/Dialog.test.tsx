import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Dialog } from './Dialog';

function Harness({ dismissible = true }: { dismissible?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>Delete user</button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Delete jane.doe?" description="This cannot be undone." dismissible={dismissible} footer={<><button type="button" onClick={() => setOpen(false)}>Cancel</button><button type="button">Delete</button></>}>
        <input aria-label="Type the name" />
      </Dialog>
    </>
  );
}

describe('Dialog', () => {
  it('is a modal dialog named by its title and described by its description', () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete user' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete jane.doe?' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.getAttribute('aria-describedby')).toBe(screen.getByText('This cannot be undone.').id);
  });

  it('sits in a portal on the body at the modal z-index layer', () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete user' }));
    const backdrop = screen.getByRole('dialog').parentElement!;
    expect(backdrop.parentElement).toBe(document.body);
    expect(backdrop.className).toBe('ui-dialog__backdrop');
  });

  it('moves focus inside on open and gives it back to the opener on close', () => {
    render(<Harness />);
    const opener = screen.getByRole('button', { name: 'Delete user' });
    opener.focus();
    fireEvent.click(opener);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('keeps Tab inside: past the last control it wraps to the first, and back', () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete user' }));
    const dialog = screen.getByRole('dialog');
    const close = screen.getByRole('button', { name: 'Close' });
    const last = screen.getByRole('button', { name: 'Delete' });
    last.focus();
    fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
  });

  it('closes on a click on the backdrop', () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete user' }));
    fireEvent.mouseDown(screen.getByRole('dialog').parentElement!);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('when not dismissible ignores Escape and the backdrop and has no close button', () => {
    render(<Harness dismissible={false} />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete user' }));
    const dialog = screen.getByRole('dialog');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    fireEvent.mouseDown(dialog.parentElement!);
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
  });

  it('renders nothing while closed', () => {
    const onClose = vi.fn();
    render(<Dialog open={false} onClose={onClose} title="Hidden" />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('is an alert dialog when asked', () => {
    render(<Dialog open onClose={() => {}} title="Really?" alert />);
    expect(screen.getByRole('alertdialog', { name: 'Really?' })).toBeTruthy();
  });
});
