import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Switch } from './Switch';

describe('Switch', () => {
  it('is a labelled switch that reports the flipped state', () => {
    const onCheckedChange = vi.fn();
    render(<Switch label="Active" checked={false} onCheckedChange={onCheckedChange} />);
    const control = screen.getByRole('switch', { name: 'Active' });
    expect(control.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(control);
    expect(onCheckedChange).toHaveBeenCalledWith(true);
  });

  it('says it is on when checked', () => {
    render(<Switch label="Active" checked onCheckedChange={() => {}} />);
    expect(screen.getByRole('switch', { name: 'Active' }).getAttribute('aria-checked')).toBe('true');
  });

  it('does not flip while disabled', () => {
    const onCheckedChange = vi.fn();
    render(<Switch label="Active" checked onCheckedChange={onCheckedChange} disabled />);
    fireEvent.click(screen.getByRole('switch', { name: 'Active' }));
    expect(onCheckedChange).not.toHaveBeenCalled();
  });
});
