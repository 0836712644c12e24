import { apiFetch } from '../http';
import { t } from '../i18n/messages';
import { navigateTo } from '../navigation';
import { currentOverlayList, openOverlayList } from '../overlay/overlayList';
import { getSession } from '../session/session';
import { mainMenu, menuLabel, settingsMenu, visibleItems } from '../shell/menu';

/** One thing the palette can jump to. `name` is what the search looks in. */
export type PaletteItem = { name: string; kind: 'page' | 'adapter' | 'query' | 'device' | 'software' | 'vulnerability'; to: string };

// Devices, software and CVEs are many: the palette lists the first thousand of each by name (the API's largest page).
const assetPageSize = 1000;
const pseudoAdapterStatus = 6;

/** The pages of the main and settings menus the user may open, that are built and that the license holds. */
export function pageItems(permissions: readonly string[]): PaletteItem[] {
  return visibleItems([...mainMenu, ...settingsMenu], permissions).map((item) => ({ name: menuLabel(item), kind: 'page', to: item.path }));
}

/** The adapters the user may use, each leading to its setup page (the built-in pseudo-adapters have none). */
export function adapterItems(): PaletteItem[] {
  const { adapters, user } = getSession();
  if (!user?.permissions.includes('adapters.view_connection')) return [];
  return adapters.filter((adapter) => adapter.status !== pseudoAdapterStatus && !adapter.custom).map((adapter) => ({ name: adapter.name, kind: 'adapter', to: `/adapters/connections/components/instructions/${adapter.slug}` }));
}

// A saved query's type names its inventory, except software's ("application").
const inventoryOfQueryType: Record<string, string> = { application: 'software-inventory' };

async function savedQueryItems(permissions: readonly string[]): Promise<PaletteItem[]> {
  if (!permissions.includes('queries.view_query')) return [];
  const answer = await apiFetch<{ results: { id: number; name: string; type: string }[] }>('/queries/queries', { query: { size: 1000 }, silent: true });
  return answer.results.map((query) => ({ name: query.name, kind: 'query', to: `/${inventoryOfQueryType[query.type] ?? `${query.type}-inventory`}/saved-queries/edit/${query.id}` }));
}

/** An inventory the palette searches: who may, where it lists, the fields that name an asset, and its detail page. */
type AssetSource = { kind: 'device' | 'software' | 'vulnerability'; permission: string; searchPath: string; fields: string[]; detailPath: string };
const assetSources: AssetSource[] = [
  { kind: 'device', permission: 'users.view_devices', searchPath: '/devices/devices', fields: ['Hostname'], detailPath: '/device-inventory/detail' },
  { kind: 'software', permission: 'users.view_applications', searchPath: '/appinventory/applications', fields: ['Name'], detailPath: '/software-inventory/detail' },
  // A CVE is found by its id or its title.
  { kind: 'vulnerability', permission: 'users.view_avm_vulnerabilities', searchPath: '/avm/vulnerabilities', fields: ['CveId', 'Title'], detailPath: '/vulnerability-inventory/detail' },
];

async function assetItems(source: AssetSource, permissions: readonly string[]): Promise<PaletteItem[]> {
  if (!permissions.includes(source.permission)) return [];
  const answer = await apiFetch<{ results: (Record<string, unknown[] | undefined> & { PrimaryKey: string[] })[]; index_id: number | null }>(source.searchPath, {
    method: 'POST', body: { fields: source.fields, page: 1, size: assetPageSize, ordering: [{ field: source.fields[0] }] }, silent: true,
  });
  if (!answer.index_id) return [];
  return answer.results.flatMap((asset) => {
    const name = source.fields.map((field) => asset[field]?.[0]).filter((value) => value !== undefined && value !== null && value !== '').join(' · ');
    return name ? [{ name, kind: source.kind, to: `${source.detailPath}/${encodeURIComponent(asset.PrimaryKey[0]!)}/${answer.index_id}` }] : [];
  });
}

const kindLabel = (kind: PaletteItem['kind']) => t(`palette.kind.${kind}`);

function show(items: PaletteItem[]): void {
  openOverlayList<PaletteItem>({
    title: t('palette.title'),
    items,
    clickable: true,
    searchBy: ['name'],
    onClick: (item) => navigateTo(item.to),
    render: (item) => `${item.name} · ${kindLabel(item.kind)}`,
  });
}

/**
 * Opens the command palette: pages and adapters at once, saved queries, devices, software and CVEs as soon as they
 * arrive (a failed fetch leaves them out; the palette stays usable).
 */
export function openCommandPalette(): void {
  const permissions = getSession().user?.permissions ?? [];
  const known = [...pageItems(permissions), ...adapterItems()];
  show(known);
  const fetched = [savedQueryItems(permissions), ...assetSources.map((source) => assetItems(source, permissions))].map((items) => items.catch((): PaletteItem[] => []));
  void Promise.all(fetched).then((lists) => {
    const found = lists.flat();
    // Only into a palette still open: one closed meanwhile stays closed.
    if (found.length && currentOverlayList()?.title === t('palette.title')) show([...known, ...found]);
  });
}
