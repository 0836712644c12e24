import { useEffect, useSyncExternalStore } from 'react';

/** One step of the breadcrumb in the top bar; pages set their own trail, the Not Found screen clears it. */
export type Crumb = { label: string; to?: string };

let trail: Crumb[] = [];
// The title of the page on screen (its PageHeader's h1): the breadcrumb's last step always reads the same.
let pageTitle: string | null = null;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

export function setBreadcrumb(next: Crumb[]): void {
  trail = next;
  notify();
}

/** Forgets the trail of the page left behind (the router calls it before each navigation to another path). */
export const clearBreadcrumb = (): void => setBreadcrumb([]);
export const getBreadcrumb = (): Crumb[] => trail;

/** Makes `title` the page's title while the calling component is mounted. */
export function usePageTitle(title: string | null): void {
  useEffect(() => {
    if (title === null) return;
    pageTitle = title;
    notify();
    return () => {
      if (pageTitle !== title) return;
      pageTitle = null;
      notify();
    };
  }, [title]);
}

/**
 * The trail to show: the page's own, its last step named by the page's title (a page calls itself "Tags" in its
 * trail and "Device tags" in its heading: the heading wins); without one, the page's title under its section.
 */
export function shownTrail(pageTrail: Crumb[], title: string | null, section: Crumb | null): Crumb[] {
  if (title === null) return pageTrail;
  if (pageTrail.length === 0) return section ? [section, { label: title }] : [{ label: title }];
  return [...pageTrail.slice(0, -1), { ...pageTrail.at(-1)!, label: title }];
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

export function useBreadcrumb(): Crumb[] {
  return useSyncExternalStore(subscribe, () => trail);
}

export function usePageTitleShown(): string | null {
  return useSyncExternalStore(subscribe, () => pageTitle);
}
