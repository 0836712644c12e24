import type { Cluster } from './correlate.js';

const pairs = (size: number) => (size * (size - 1)) / 2;

/**
 * Pairwise precision and recall of clusters against the truth (record key → real asset): precision is the share
 * of record pairs put together that belong together; recall the share of pairs that belong together and were.
 */
export function scoreClusters(clusters: Cluster[], truth: Map<string, string>): { precision: number; recall: number } {
  let predicted = 0;
  let correct = 0;
  for (const cluster of clusters) {
    predicted += pairs(cluster.records.length);
    const byAsset = new Map<string, number>();
    for (const key of cluster.records) byAsset.set(truth.get(key) ?? key, (byAsset.get(truth.get(key) ?? key) ?? 0) + 1);
    for (const size of byAsset.values()) correct += pairs(size);
  }
  const actualSizes = new Map<string, number>();
  for (const asset of truth.values()) actualSizes.set(asset, (actualSizes.get(asset) ?? 0) + 1);
  const actual = [...actualSizes.values()].reduce((sum, size) => sum + pairs(size), 0);
  return { precision: predicted ? correct / predicted : 1, recall: actual ? correct / actual : 1 };
}
