import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Checkbox } from './Checkbox';

describe('Checkbox', () => {
  it('toggles through its label and reports the new state', () => {
    const onCheckedChange = vi.fn();
    render(<Checkbox label="Verify TLS certificate" checked={false} onCheckedChange={onCheckedChange} />);
    fireEvent.click(screen.getByText('Verify TLS certificate'));
    expect(onCheckedChange).toHaveBeenCalledWith(true);
  });

  it('shows the indeterminate state on the element', () => {
    render(<Checkbox label="All adapters" checked={false} indeterminate onCheckedChange={() => {}} />);
    expect((screen.getByRole('checkbox', { name: 'All adapters' }) as HTMLInputElement).indeterminate).toBe(true);
  });

  it('describes itself by its error and is marked invalid', () => {
    render(<Checkbox label="I agree" checked={false} onCheckedChange={() => {}} error="You must agree." />);
    const box = screen.getByRole('checkbox', { name: 'I agree' });
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(box.getAttribute('aria-describedby')).toBe(screen.getByRole('alert').id);
  });

  it('does not change while disabled', () => {
    const onCheckedChange = vi.fn();
    render(<Checkbox label="Locked" checked onCheckedChange={onCheckedChange} disabled />);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Locked' }));
    expect(onCheckedChange).not.toHaveBeenCalled();
  });
});
