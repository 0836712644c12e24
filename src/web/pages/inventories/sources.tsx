import { t } from '../../app/i18n/messages';
import { connectionNameOf, type SnapshotConnection } from '../../../core/connectionNames';
import { adapterImage } from '../adapters/adapterSearch';
import type { AssetDetailResponse } from './inventoryApi';

/** A source as users know it: its connection's name, with its adapter's icon (the adapter named on hover). */
export function SourceName({ name, adapter }: { name: string; adapter: string }) {
  return (
    <span className="inventory-source" title={`${name} (${adapter})`}>
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
  if (!connectionIds?.length || !connections.length) {
    return (
      <span className="inventory-adapters">
        {adapters.map((slug) => <img key={String(slug)} src={adapterImage(String(slug))} alt={String(slug)} title={String(slug)} width={18} height={18} />)}
      </span>
    );
  }
  return (
    <span className="inventory-adapters">
      {connectionIds.map((id) => {
        const connection = connections.find((candidate) => candidate.id === Number(id));
        return <SourceName key={String(id)} name={connectionNameOf(connections, Number(id))} adapter={connection?.adapter ?? String(adapters[0] ?? '')} />;
      })}
    </span>
  );
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

/** An asset's field as a detail or preview shows it: `Connections` by the names its source records carry. */
export function detailValue(asset: Record<string, unknown> & { sources?: AssetDetailResponse['sources'] }, key: string): unknown {
  if (key !== 'Connections') return asset[key];
  const connections = (asset.sources ?? []).map((source) => ({ id: source.connection_id, name: source.connection_name, adapter: source.adapter }));
  return connectionNames(asset.Connections as unknown[] | undefined, connections);
}
