import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Field } from './Field';

const control = ({ controlId, describedBy, invalid }: { controlId: string; describedBy: string | undefined; invalid: boolean }) => (
  <input id={controlId} aria-describedby={describedBy} aria-invalid={invalid || undefined} />
);

describe('Field', () => {
  it('labels its control and marks a required field for sighted users only', () => {
    render(<Field label="Name" required>{control}</Field>);
    expect(screen.getByLabelText(/Name/)).toBeTruthy();
    expect(screen.getByText('*').getAttribute('aria-hidden')).toBe('true');
  });

  it('describes the control by its message while there is no error', () => {
    render(<Field label="Name" message="Shown to everyone.">{control}</Field>);
    expect(screen.getByLabelText('Name').getAttribute('aria-describedby')).toBe(screen.getByText('Shown to everyone.').id);
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBeNull();
  });

  it('treats an empty error or an empty list as no error', () => {
    const { rerender } = render(<Field label="Name" error="">{control}</Field>);
    expect(screen.queryByRole('alert')).toBeNull();
    rerender(<Field label="Name" error={[]}>{control}</Field>);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('uses the id it is given for the control', () => {
    render(<Field label="Name" id="user-name">{control}</Field>);
    expect(screen.getByLabelText('Name').id).toBe('user-name');
  });
});
