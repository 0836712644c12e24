import Fuse from 'fuse.js';

export type Searchable = { name: string; slug: string };

/**
 * Fuzzy search over adapters and enrichments (spec §5): threshold 0.2 on label and slug; an empty search returns
 * the whole list in its order.
 */
export function fuzzySearch<T extends Searchable>(items: readonly T[], search: string): T[] {
  const needle = search.trim();
  if (!needle) return [...items];
  const fuse = new Fuse(items, { keys: ['name', 'slug'], threshold: 0.2, ignoreLocation: true });
  return fuse.search(needle).map((result) => result.item);
}

/** Spec §3 categories in the order the adapters page shows them. */
export const adapterCategories = ['device', 'user', 'vulnerability', 'application', 'certificate', 'service'] as const;

const categoryLabels: Record<string, string> = {
  device: 'Devices',
  user: 'Users',
  vulnerability: 'Vulnerabilities',
  application: 'Applications',
  certificate: 'Certificates',
  service: 'Services',
};

export const categoryLabel = (category: string): string => categoryLabels[category] ?? category;

/** The image of an adapter (spec §3: `/images/adapters/{adapter}.svg`), relative for the hash-routed console. */
export const adapterImage = (slug: string): string => `images/adapters/${slug}.svg`;
