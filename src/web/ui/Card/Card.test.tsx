import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Card } from './Card';

describe('Card', () => {
  it('is a region named by its title, with its actions and footer', () => {
    render(
      <Card title="Connection" actions={<button type="button">Edit</button>} footer={<span>Saved</span>}>
        Body text
      </Card>,
    );
    const region = screen.getByRole('region', { name: 'Connection' });
    expect(region.textContent).toContain('Body text');
    expect(screen.getByRole('button', { name: 'Edit' })).toBeTruthy();
    expect(screen.getByText('Saved')).toBeTruthy();
  });

  it('uses the requested heading level for its title', () => {
    render(<Card title="Details" headingLevel={3}>x</Card>);
    expect(screen.getByRole('heading', { level: 3, name: 'Details' })).toBeTruthy();
  });

  it('without a title is not announced as a region', () => {
    render(<Card>Plain</Card>);
    expect(screen.queryByRole('region')).toBeNull();
  });
});
