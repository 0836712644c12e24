import { t } from '../../app/i18n/messages';
import { useSession } from '../../app/session/session';
import { connectionNameOf, type SnapshotConnection } from '../../../core/connectionNames';
import { adapterImage } from '../adapters/adapterSearch';
import { CollapsedValues } from './CollapsedValues';
import type { AssetDetailResponse } from './inventoryApi';

/** An adapter as users know it: its catalogue name ("CSV file"), never its slug; the slug only when the catalogue lacks it. */
export function useAdapterName(): (slug: string) => string {
  const { adapters } = useSession();
  return (slug) => adapters.find((adapter) => adapter.slug === slug)?.name ?? slug;
}

/** A source as users know it: its connection's name, with its adapter's icon (the adapter named on hover). */
export function SourceName({ name, adapter }: { name: string; adapter: string }) {
  const adapterName = useAdapterName();
  return (
    <span className="inventory-source" title={`${name} (${adapterName(adapter)})`}>
      <img src={adapterImage(adapter)} alt="" width={16} height={16} />
      <span className="inventory-source__name">{name}</span>
    </span>
  );
}

/**
 * The Adapters cell: one badge per connection that reports the asset, so four exports through one adapter, or two
 * tenants of one vendor, read as the different sources they are. Without the row's connections (an older answer),
 * the adapters' icons.
 */
export function SourceBadges({ adapters, connectionIds, connections }: { adapters: unknown[]; connectionIds: unknown[] | undefined; connections: readonly SnapshotConnection[] }) {
  const adapterName = useAdapterName();
  if (!connectionIds?.length || !connections.length) {
    return (
      <span className="inventory-adapters">
        {adapters.map((slug) => <img key={String(slug)} src={adapterImage(String(slug))} alt={adapterName(String(slug))} title={adapterName(String(slug))} width={18} height={18} />)}
      </span>
    );
  }
  // "CrowdStrike +3": the first source's badge, the others named in the tooltip of "+3".
  const names = connectionIds.map((id) => connectionNameOf(connections, Number(id)));
  const badges = connectionIds.map((id, index) => {
    const connection = connections.find((candidate) => candidate.id === Number(id));
    return <SourceName key={String(id)} name={names[index]!} adapter={connection?.adapter ?? String(adapters[0] ?? '')} />;
  });
  return <span className="inventory-adapters"><CollapsedValues items={badges} texts={names} /></span>;
}

/** The names of a row's connections, for the Connections column. */
export const connectionNames = (connectionIds: unknown[] | undefined, connections: readonly SnapshotConnection[]): string[] =>
  (connectionIds ?? []).map((id) => connectionNameOf(connections, Number(id)));

/** Tab labels of an asset's source records: the connection's name, numbered when one connection sent several records. */
export function sourceTabLabels(sources: readonly { connection_id: number; connection_name?: string }[]): string[] {
  const seen = new Map<number, number>();
  const totals = new Map<number, number>();
  for (const source of sources) totals.set(source.connection_id, (totals.get(source.connection_id) ?? 0) + 1);
  return sources.map((source) => {
    const name = source.connection_name ?? t('inventories.connectionNumber', { id: source.connection_id });
    const position = (seen.get(source.connection_id) ?? 0) + 1;
    seen.set(source.connection_id, position);
    return (totals.get(source.connection_id) ?? 1) > 1 ? `${name} (${position})` : name;
  });
}

/**
 * An asset's field as a detail or preview shows it: `Connections` by the names its source records carry, `Adapters`
 * by the adapters' catalogue names ("CSV file", never `csvfile`).
 */
export function detailValue(asset: Record<string, unknown> & Partial<Pick<AssetDetailResponse, 'sources' | 'connections'>>, key: string, adapterName: (slug: string) => string): unknown {
  if (key === 'Adapters') return ((asset.Adapters as unknown[] | undefined) ?? []).map((slug) => adapterName(String(slug)));
  if (key !== 'Connections') return asset[key];
  const connections = asset.connections ?? (asset.sources ?? []).map((source) => ({ id: source.connection_id, name: source.connection_name, adapter: source.adapter }));
  return connectionNames(asset.Connections as unknown[] | undefined, connections);
}
