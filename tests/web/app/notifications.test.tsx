import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotificationArea } from '../../../src/web/app/notifications/NotificationArea';
import { dismissAll, dismissErrors, getNotifications, lifetimes, notify } from '../../../src/web/app/notifications/notifications';

beforeEach(() => {
  vi.useFakeTimers();
  dismissAll();
});
afterEach(() => vi.useRealTimers());

describe('notifications', () => {
  it('has the lifetimes of spec §9', () => {
    expect(lifetimes).toEqual({ short: 2000, default: 3000, long: 5000, extremeLong: 10_000, sticky: 0 });
  });

  it('gives each kind its default title', () => {
    notify('success', 'Saved');
    notify('warning', 'Careful');
    notify('error', 'Broken');
    expect(getNotifications().map((notification) => notification.title)).toEqual(['Success', 'Warning', 'An error occurred']);
  });

  it('closes a notification after its lifetime (default 3 s)', () => {
    notify('success', 'Saved');
    vi.advanceTimersByTime(2999);
    expect(getNotifications()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(getNotifications()).toHaveLength(0);
  });

  it('keeps a sticky notification until it is closed', () => {
    notify('error', 'Stays', { lifetime: lifetimes.sticky });
    vi.advanceTimersByTime(60_000);
    expect(getNotifications()).toHaveLength(1);
  });

  it('renders line breaks as <br> and closes on its close button', () => {
    render(<NotificationArea />);
    act(() => void notify('error', 'name: Required.\nport: Too big.', { lifetime: lifetimes.sticky }));
    const alert = screen.getByRole('alert');
    expect(alert.querySelectorAll('br')).toHaveLength(1);
    expect(alert.textContent).toContain('An error occurred');
    expect(alert.textContent).toContain('name: Required.port: Too big.');
    act(() => screen.getByRole('button', { name: 'Close notification' }).click());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows success and warning as status messages in the notification region', () => {
    render(<NotificationArea />);
    act(() => void notify('success', 'Saved', { title: 'User created' }));
    expect(screen.getByRole('region', { name: 'Notifications' }).textContent).toContain('User created');
    expect(screen.getByRole('status').textContent).toContain('Saved');
  });
});

describe('error notifications in the first hour (issue 36)', () => {
  it('close when something succeeds, or when the user moves to another page', () => {
    notify('error', 'scope.query is wrong');
    notify('warning', 'Careful');
    notify('success', 'Saved');
    expect(getNotifications().map((notification) => notification.kind)).toEqual(['warning', 'success']);
    notify('error', 'Broken again');
    dismissErrors();
    expect(getNotifications().map((notification) => notification.kind)).toEqual(['warning', 'success']);
  });
});
