import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AdapterStatusBadge, adapterStatusLook, Badge, discoveryStatusLook, TaskStatusBadge, taskStatusLook } from './Badge';

describe('Badge', () => {
  it('shows its text in the requested tone', () => {
    render(<Badge tone="warning">3 warnings</Badge>);
    expect(screen.getByText('3 warnings').className).toContain('ui-badge--warning');
  });

  it.each([
    [1, 'success', 'Done'],
    [2, 'warning', 'Warning'],
    [3, 'danger', 'Error'],
    [4, 'neutral', 'Not configured'],
  ] as const)('shows adapter status %i as %s "%s" (spec §4)', (status, tone, label) => {
    expect(adapterStatusLook(status)).toEqual({ tone, label });
    render(<AdapterStatusBadge status={status} />);
    expect(screen.getByText(label).className).toContain(`ui-badge--${tone}`);
  });

  it('shows no badge for the built-in pseudo-adapters (status 6): they fetch nothing of their own', () => {
    const { container } = render(<AdapterStatusBadge status={6} />);
    expect(container.textContent).toBe('');
  });

  it('shows an unknown adapter status as neutral with its number', () => {
    expect(adapterStatusLook(9)).toEqual({ tone: 'neutral', label: 'Unknown (9)' });
  });

  it('maps task statuses 1 running, 2 done, 3 error', () => {
    expect([1, 2, 3].map((status) => taskStatusLook(status).label)).toEqual(['Running', 'Done', 'Error']);
    render(<TaskStatusBadge status={3} />);
    expect(screen.getByText('Error').className).toContain('ui-badge--danger');
  });

  it('maps discovery statuses running, done, error', () => {
    expect(['running', 'done', 'error'].map((status) => discoveryStatusLook(status).tone)).toEqual(['info', 'success', 'danger']);
  });
});
