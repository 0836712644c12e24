import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatDate } from '../../../src/core/dates';
import { RelativeTime } from '../../../src/web/ui';

describe('relative times', () => {
  it('say how long ago a moment was, in the console locale, with the full date in the console format as the tooltip', () => {
    const now = new Date('2026-11-23T10:00:00Z');
    render(<RelativeTime value="2026-11-20T10:00:00Z" now={now} />);
    const time = screen.getByText('3 days ago');
    expect(time.tagName).toBe('TIME');
    expect(time.getAttribute('dateTime')).toBe('2026-11-20T10:00:00.000Z');
    expect(time.getAttribute('title')).toBe(formatDate('2026-11-20T10:00:00Z'));
    expect(time.getAttribute('title')).toMatch(/^20 November 2026, \d\d:\d\d$/);
  });

  it('show no date as a dash, never "55 years ago"', () => {
    const { container } = render(<><RelativeTime value={null} /><RelativeTime value="0001-01-01T00:00:00" /></>);
    expect(container.textContent).toBe('--');
  });
});
