import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useNavigate, useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { hasPermission } from '../../app/session/session';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { EmptyState } from '../../ui';
import { AssetPreview } from './AssetPreview';
import { discoveryConfigurationQuery, type FieldMap } from './inventoryApi';
import type { InventoryKind } from './inventoryKinds';
import './inventories.css';
import './deviceActions.css';

/** The router writes a string that looks like JSON (`"123"`) quoted, so it reads back as a string; undo that. */
function unquoted(value: string): string {
  if (!/^".*"$/.test(value)) return value;
  try {
    return String(JSON.parse(value));
  } catch {
    return value;
  }
}

/**
 * `?id=<PrimaryKey>&discoveryId=<n>` read from the raw query string: the router's parsed search turns an id such as
 * `1e5` into a number. A discovery id that is not a positive integer means the latest snapshot.
 */
export function previewTarget(searchStr: string): { id: string; discoveryId: number | null } {
  const search = new URLSearchParams(searchStr);
  const id = unquoted(search.get('id') ?? '').trim();
  const discoveryId = Number(unquoted(search.get('discoveryId') ?? ''));
  return { id, discoveryId: Number.isInteger(discoveryId) && discoveryId > 0 ? discoveryId : null };
}

/** `/…-inventory/preview?id=…`: the preview panel of one asset on a page of its own, for links from elsewhere. */
export function AssetPreviewPage({ kind }: { kind: InventoryKind }) {
  // The history's own search text: the router's location is rebuilt from the parsed search (1e5 → 100000).
  // useLocation() subscribes this page to navigation, so a new ?id= shows at once.
  useLocation();
  const { id, discoveryId } = previewTarget(useRouter().history.location.search);
  const navigate = useNavigate();
  const configuration = useQuery(discoveryConfigurationQuery());
  const fieldMap = (configuration.data?.[kind.fieldMapKey] ?? {}) as FieldMap;
  useEffect(() => setBreadcrumb([{ label: kind.title, to: kind.basePath }, { label: t('inventories.preview') }]), [kind]);
  if (!id) {
    return (
      <section className="inventory-page">
        <EmptyState title={t('inventories.noEntityChosen', { entity: kind.entity })} description={t('inventories.linkNamesNoAsset')} />
        <Link to={kind.basePath}>{t('inventories.openTitleInventory', { title: kind.title.toLowerCase() })}</Link>
      </section>
    );
  }
  return (
    <section className="inventory-page inventory-preview-page">
      <AssetPreview kind={kind} id={id} discoveryId={discoveryId} fieldMap={fieldMap} canOpenDetail={hasPermission(kind.detailPermission)} onClose={() => void navigate({ to: kind.basePath })} />
    </section>
  );
}
