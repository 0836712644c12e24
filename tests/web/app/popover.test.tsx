import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Popover } from '../../../src/web/app/overlay/Popover';

function renderPopover(dismissible?: boolean) {
  render(
    <div>
      <p>Outside</p>
      <Popover trigger="Open" triggerLabel="Open menu" dismissible={dismissible}>
        <p>Inside the popover</p>
      </Popover>
    </div>,
  );
  act(() => void fireEvent.click(screen.getByRole('button', { name: 'Open menu' })));
  expect(screen.getByText('Inside the popover')).toBeTruthy();
}

const isOpen = () => screen.queryByText('Inside the popover') !== null;

describe('Popover', () => {
  it('toggles on its trigger', () => {
    renderPopover();
    act(() => void fireEvent.click(screen.getByRole('button', { name: 'Open menu' })));
    expect(isOpen()).toBe(false);
  });

  it('closes on Escape', () => {
    renderPopover();
    act(() => void fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' }));
    expect(isOpen()).toBe(false);
  });

  it('closes on a window resize', () => {
    renderPopover();
    act(() => void window.dispatchEvent(new Event('resize')));
    expect(isOpen()).toBe(false);
  });

  it('closes when the page scrolls', () => {
    renderPopover();
    act(() => void document.dispatchEvent(new Event('scroll')));
    expect(isOpen()).toBe(false);
  });

  it('stays open on Escape, resize and scroll when it is not dismissible', () => {
    renderPopover(false);
    act(() => void fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' }));
    act(() => void window.dispatchEvent(new Event('resize')));
    act(() => void document.dispatchEvent(new Event('scroll')));
    expect(isOpen()).toBe(true);
  });
});

// Outside clicks are checked in a real browser (tests/e2e/console.test.ts): Radix's pointer-down-outside detection does not run under happy-dom.
