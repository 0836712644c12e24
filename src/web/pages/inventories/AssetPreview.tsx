import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Button, ErrorState, Spinner } from '../../ui';
import { fieldLabel, FieldValues, ownFieldKeys } from './fieldValues';
import { assetDetailQuery, type FieldMap, type SourceRecordResponse } from './inventoryApi';
import type { InventoryKind } from './inventoryKinds';
import { detailValue, useAdapterName } from './sources';

/** Devices and users have source records; software and vulnerabilities are folded from installations and findings. */
type PreviewedAsset = Record<string, unknown> & { index_id: number; sources?: SourceRecordResponse[] };

type AssetPreviewProps = { kind: InventoryKind; id: string; discoveryId: number | null; fieldMap: FieldMap; onClose: () => void; canOpenDetail: boolean };

/** The side panel of a list row: the asset's own fields (not the per-source Specifics) and a link to its detail. */
export function AssetPreview({ kind, id, discoveryId, fieldMap, onClose, canOpenDetail }: AssetPreviewProps) {
  const detail = useQuery(assetDetailQuery<PreviewedAsset>(kind.searchPath, id, discoveryId));
  const adapterName = useAdapterName();
  const asset = detail.data;
  const own = asset ? ownFieldKeys(asset, fieldMap) : [];
  const name = asset ? String((asset[kind.nameField] as unknown[] | undefined)?.[0] ?? id) : id;
  return (
    <aside className="asset-preview" aria-label={t('inventories.previewOfName', { name })}>
      <header className="asset-preview__header">
        <h2>{name}</h2>
        <Button variant="ghost" onClick={onClose} aria-label={t('inventories.closePreview')}>{t('inventories.close')}</Button>
      </header>
      {detail.isPending ? <Spinner label={t('inventories.loadingPreview')} /> : detail.isError ? <ErrorState message={detail.error.message} /> : (
        <>
          <dl className="inventory-facts">
            {own.map((key) => (
              <div key={key}>
                <dt>{fieldLabel(key, fieldMap[key])}</dt>
                <dd><FieldValues values={asset && detailValue(asset, key, adapterName)} type={fieldMap[key]?.value_type} titles={fieldMap[key]?.value_titles} /></dd>
              </div>
            ))}
          </dl>
          {asset?.sources && <p className="inventory-muted">{t('inventories.lengthSourceRecordS', { length: asset.sources.length })}</p>}
          {canOpenDetail && asset && (
            <Link
              className="ui-button ui-button--success ui-button--medium"
              to={kind.detailPath}
              params={{ [kind.idParam]: id, discoveryId: String(asset.index_id) }}
            >
              {t('inventories.openDetails')}
            </Link>
          )}
        </>
      )}
    </aside>
  );
}
