import { useSyncExternalStore } from 'react';
import { t } from '../i18n/messages';

export type NotificationKind = 'success' | 'error' | 'warning';

/** Lifetimes of spec §9, in milliseconds; sticky (0) stays until closed. */
export const lifetimes = { short: 2000, default: 3000, long: 5000, extremeLong: 10_000, sticky: 0 } as const;
export const defaultTitles: Record<NotificationKind, string> = { success: 'Success', warning: 'Warning', error: 'An error occurred' };

/** A button in the notification ("Reload"); choosing it closes the notification. */
export type NotificationAction = { label: string; onClick: () => void };
export type Notification = { id: number; kind: NotificationKind; title: string; text: string; lifetime: number; action?: NotificationAction };

let notifications: Notification[] = [];
let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export function dismiss(id: number): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  notifications = notifications.filter((notification) => notification.id !== id);
  emit();
}

export function dismissAll(): void {
  for (const timer of timers.values()) clearTimeout(timer);
  timers.clear();
  notifications = [];
  emit();
}

/** Closes the error notifications: a later success or another page makes them stale (they would cover the header). */
export function dismissErrors(): void {
  for (const notification of notifications) if (notification.kind === 'error') dismiss(notification.id);
}

/** Shows a notification at the top right; it closes itself after its lifetime unless sticky (0). A success closes the errors. */
export function notify(kind: NotificationKind, text: string, options: { title?: string; lifetime?: number; action?: NotificationAction } = {}): number {
  const notification: Notification = {
    id: nextId++, kind, text, title: options.title ?? t(`notification.title.${kind}`, {}, defaultTitles[kind]), lifetime: options.lifetime ?? lifetimes.default,
    ...(options.action && { action: options.action }),
  };
  if (kind === 'success') dismissErrors();
  notifications = [...notifications, notification];
  emit();
  if (notification.lifetime > 0) timers.set(notification.id, setTimeout(() => dismiss(notification.id), notification.lifetime));
  return notification.id;
}

export const getNotifications = (): Notification[] => notifications;

export function useNotifications(): Notification[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getNotifications,
  );
}
