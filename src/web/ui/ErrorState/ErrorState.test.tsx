import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ErrorState } from './ErrorState';

describe('ErrorState', () => {
  it('announces the default title and fallback text of spec §8', () => {
    render(<ErrorState />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('An error occurred');
    expect(alert.textContent).toContain('Unknown error');
  });

  it('offers a retry that calls back', () => {
    const onRetry = vi.fn();
    render(<ErrorState message="The server did not answer." onRetry={onRetry} />);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('has no retry button without onRetry', () => {
    render(<ErrorState message="Gone." />);
    expect(screen.queryByRole('button')).toBeNull();
  });
});
