import { t } from '../../app/i18n/messages';
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
  get device() { return t('adapters.devices'); },
  get user() { return t('adapters.users'); },
  get vulnerability() { return t('adapters.vulnerabilities'); },
  get application() { return t('adapters.applications'); },
  get certificate() { return t('adapters.certificates'); },
  get service() { return t('adapters.services'); },
  // Entities a manifest fetches that are not catalogue categories.
  get software() { return t('adapters.softwareEntity'); },
  get license() { return t('adapters.licenses'); },
};

export const categoryLabel = (category: string): string => categoryLabels[category] ?? category;

/** The image of an adapter (spec §3: `/images/adapters/{adapter}.svg`), relative for the hash-routed console. */
export const adapterImage = (slug: string): string => `images/adapters/${slug}.svg`;
