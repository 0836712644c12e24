import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Button, ErrorState, Spinner } from '../../ui';
import { fieldLabel, FieldValues } from './fieldValues';
import { assetDetailQuery, type FieldMap } from './inventoryApi';
import type { InventoryKind } from './inventoryKinds';
import { detailValue } from './sources';

type AssetPreviewProps = { kind: InventoryKind; id: string; discoveryId: number | null; fieldMap: FieldMap; onClose: () => void; canOpenDetail: boolean };

/** The side panel of a list row: the asset's own fields (not the per-source Specifics) and a link to its detail. */
export function AssetPreview({ kind, id, discoveryId, fieldMap, onClose, canOpenDetail }: AssetPreviewProps) {
  const detail = useQuery(assetDetailQuery(kind.searchPath, id, discoveryId));
  const asset = detail.data;
  const own = asset ? Object.keys(fieldMap).filter((key) => !key.startsWith('Specifics.') && Array.isArray(asset[key]) && (asset[key] as unknown[]).length) : [];
  const name = asset ? String((asset[kind.nameField] as unknown[] | undefined)?.[0] ?? id) : id;
  return (
    <aside className="asset-preview" aria-label={`Preview of ${name}`}>
      <header className="asset-preview__header">
        <h2>{name}</h2>
        <Button variant="ghost" onClick={onClose} aria-label="Close preview">Close</Button>
      </header>
      {detail.isPending ? <Spinner label="Loading preview" /> : detail.isError ? <ErrorState message={detail.error.message} /> : (
        <>
          <dl className="inventory-facts">
            {own.map((key) => (
              <div key={key}>
                <dt>{fieldLabel(key, fieldMap[key])}</dt>
                <dd><FieldValues values={asset && detailValue(asset, key)} type={fieldMap[key]?.value_type} /></dd>
              </div>
            ))}
          </dl>
          <p className="inventory-muted">{asset?.sources.length ?? 0} source record(s).</p>
          {canOpenDetail && asset && (
            <Link
              className="ui-button ui-button--success ui-button--medium"
              to={kind.entity === 'device' ? '/device-inventory/detail/$deviceId/$discoveryId' : '/user-inventory/detail/$userId/$discoveryId'}
              params={{ deviceId: id, userId: id, discoveryId: String(asset.index_id) }}
            >
              Open details
            </Link>
          )}
        </>
      )}
    </aside>
  );
}
