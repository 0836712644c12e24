import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PageHeader } from './PageHeader';

describe('PageHeader', () => {
  it('shows the title as the page heading with its description and actions', () => {
    render(<PageHeader title="Users" description="People who sign in." actions={<button type="button">Create</button>} meta={<span>12</span>} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Users' })).toBeTruthy();
    expect(screen.getByText('People who sign in.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create' })).toBeTruthy();
    expect(screen.getByText('12')).toBeTruthy();
  });
});
