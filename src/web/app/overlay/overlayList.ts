import { useSyncExternalStore, type ReactNode } from 'react';

type Item = Record<string, unknown>;

/** A global overlay list (spec §3): items, whether they are clickable, the keys search looks in, handlers, render. */
export type OverlayList<T extends Item = Item> = {
  title: string;
  items: T[];
  clickable?: boolean;
  searchBy: (keyof T & string)[];
  onClick?: (item: T) => void;
  render?: (item: T) => ReactNode;
};

// Spec §5: search starts at two characters, is case-insensitive and keeps the list's order (no scoring).
export const minimumSearchLength = 2;

/** The items whose searchBy values contain the query; shorter queries than the minimum show everything. */
export function filterOverlayItems<T extends Item>(items: T[], searchBy: (keyof T & string)[], query: string): T[] {
  const needle = query.trim().toLowerCase();
  if (needle.length < minimumSearchLength) return items;
  return items.filter((item) => searchBy.some((key) => item[key] !== undefined && item[key] !== null && String(item[key]).toLowerCase().includes(needle)));
}

let open: OverlayList | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export function openOverlayList<T extends Item>(list: OverlayList<T>): void {
  open = list as unknown as OverlayList;
  emit();
}

export function closeOverlayList(): void {
  open = null;
  emit();
}

export function useOverlayList(): OverlayList | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => open,
  );
}

/** The list on display, or null. */
export const currentOverlayList = (): OverlayList | null => open;
