import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Spinner } from './Spinner';

describe('Spinner', () => {
  it('is a status announcing what loads', () => {
    render(<Spinner label="Loading users" />);
    expect(screen.getByRole('status').textContent).toBe('Loading users');
  });

  it('is hidden from screen readers when its label is null', () => {
    const { container } = render(<Spinner label={null} />);
    expect(screen.queryByRole('status')).toBeNull();
    expect(container.firstElementChild?.getAttribute('aria-hidden')).toBe('true');
  });
});
