import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EmptyState } from './EmptyState';

describe('EmptyState', () => {
  it('says "No data found" unless told otherwise', () => {
    render(<EmptyState />);
    expect(screen.getByText('No data found')).toBeTruthy();
  });

  it('shows its title, description and action', () => {
    render(<EmptyState title="No users yet" description="Create the first one." action={<button type="button">Create user</button>} />);
    expect(screen.getByText('No users yet')).toBeTruthy();
    expect(screen.getByText('Create the first one.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create user' })).toBeTruthy();
  });
});
