import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Textarea } from './Textarea';

describe('Textarea', () => {
  it('is labelled and reports changes', () => {
    const onValueChange = vi.fn();
    render(<Textarea label="Description" value="" onValueChange={onValueChange} />);
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'line one\nline two' } });
    expect(onValueChange).toHaveBeenCalledWith('line one\nline two');
  });

  it('shows its error under the field and is marked invalid', () => {
    render(<Textarea label="Certificate" value="x" onValueChange={() => {}} error="Not a PEM certificate." monospace />);
    const textarea = screen.getByLabelText('Certificate');
    expect(textarea.getAttribute('aria-invalid')).toBe('true');
    expect(textarea.className).toContain('ui-textarea--mono');
    expect(screen.getByRole('alert').textContent).toBe('Not a PEM certificate.');
  });
});
