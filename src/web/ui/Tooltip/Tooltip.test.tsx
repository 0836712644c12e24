import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Tooltip } from './Tooltip';

describe('Tooltip', () => {
  it('is hidden until its trigger is focused, and describes the trigger', () => {
    render(
      <Tooltip content="Runs every night at 02:00">
        <button type="button">Schedule</button>
      </Tooltip>,
    );
    const trigger = screen.getByRole('button', { name: 'Schedule' });
    const tooltip = screen.getByRole('tooltip', { hidden: true });
    expect(tooltip.hidden).toBe(true);
    expect(trigger.getAttribute('aria-describedby')).toBe(tooltip.id);
    fireEvent.focus(trigger);
    expect(tooltip.hidden).toBe(false);
    fireEvent.blur(trigger);
    expect(tooltip.hidden).toBe(true);
  });

  it('opens on hover and closes on Escape', () => {
    render(
      <Tooltip content="Help">
        <button type="button">?</button>
      </Tooltip>,
    );
    fireEvent.mouseEnter(screen.getByRole('button', { name: '?' }).parentElement!);
    expect(screen.getByRole('tooltip').textContent).toBe('Help');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.getByRole('tooltip', { hidden: true }).hidden).toBe(true);
  });

  it('keeps a description the trigger already had', () => {
    render(
      <Tooltip content="More">
        <button type="button" aria-describedby="own">Info</button>
      </Tooltip>,
    );
    expect(screen.getByRole('button', { name: 'Info' }).getAttribute('aria-describedby')).toMatch(/^own tooltip-/);
  });
});
