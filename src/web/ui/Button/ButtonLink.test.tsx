import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ButtonLink } from './ButtonLink';

describe('ButtonLink', () => {
  it('is a link to its target styled as a success button by default', () => {
    render(<ButtonLink href="#/settings/user/create">Create user</ButtonLink>);
    const link = screen.getByRole('link', { name: 'Create user' });
    expect(link.getAttribute('href')).toBe('#/settings/user/create');
    expect(link.className).toContain('ui-button--success');
  });

  it('takes another variant', () => {
    render(<ButtonLink href="#/settings/user" variant="secondary">Back</ButtonLink>);
    expect(screen.getByRole('link', { name: 'Back' }).className).toContain('ui-button--secondary');
  });
});
