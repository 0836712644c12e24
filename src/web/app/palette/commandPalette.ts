import { apiFetch } from '../http';
import { t } from '../i18n/messages';
import { navigateTo } from '../navigation';
import { currentOverlayList, openOverlayList } from '../overlay/overlayList';
import { isPageBuilt } from '../pageModules';
import { mayOpen, routeByPath } from '../routeTable';
import { getSession } from '../session/session';
import { mainMenu, menuLabel, settingsMenu } from '../shell/menu';

/** One thing the palette can jump to. `name` is what the search looks in. */
export type PaletteItem = { name: string; kind: 'page' | 'adapter' | 'query' | 'device'; to: string };

// Devices are many: the palette lists the first thousand by host name (the API's largest page).
const devicePageSize = 1000;
const pseudoAdapterStatus = 6;

/** The pages of the main and settings menus the user may open and that are built. */
export function pageItems(permissions: readonly string[]): PaletteItem[] {
  return [...mainMenu, ...settingsMenu]
    .filter((item) => {
      const route = routeByPath(item.path);
      return route !== undefined && mayOpen(route, permissions) && isPageBuilt(route);
    })
    .map((item) => ({ name: menuLabel(item), kind: 'page', to: item.path }));
}

/** The adapters the user may use, each leading to its setup page (the built-in pseudo-adapters have none). */
export function adapterItems(): PaletteItem[] {
  const { adapters, user } = getSession();
  if (!user?.permissions.includes('adapters.view_connection')) return [];
  return adapters.filter((adapter) => adapter.status !== pseudoAdapterStatus && !adapter.custom).map((adapter) => ({ name: adapter.name, kind: 'adapter', to: `/adapters/connections/components/instructions/${adapter.slug}` }));
}

async function savedQueryItems(permissions: readonly string[]): Promise<PaletteItem[]> {
  if (!permissions.includes('queries.view_query')) return [];
  const answer = await apiFetch<{ results: { id: number; name: string; type: string }[] }>('/queries/queries', { query: { size: 1000 }, silent: true });
  return answer.results.map((query) => ({ name: query.name, kind: 'query', to: `/${query.type}-inventory/saved-queries/edit/${query.id}` }));
}

async function deviceItems(permissions: readonly string[]): Promise<PaletteItem[]> {
  if (!permissions.includes('users.view_devices')) return [];
  const answer = await apiFetch<{ results: { Hostname?: string[]; PrimaryKey: string[] }[]; index_id: number | null }>('/devices/devices', {
    method: 'POST', body: { fields: ['Hostname'], page: 1, size: devicePageSize, ordering: [{ field: 'Hostname' }] }, silent: true,
  });
  if (!answer.index_id) return [];
  return answer.results
    .filter((device) => device.Hostname?.[0])
    .map((device) => ({ name: device.Hostname![0]!, kind: 'device', to: `/device-inventory/detail/${encodeURIComponent(device.PrimaryKey[0]!)}/${answer.index_id}` }));
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
 * Opens the command palette: pages and adapters at once, saved queries and devices as soon as they arrive (a failed
 * fetch leaves them out; the palette stays usable).
 */
export function openCommandPalette(): void {
  const permissions = getSession().user?.permissions ?? [];
  const known = [...pageItems(permissions), ...adapterItems()];
  show(known);
  void Promise.all([savedQueryItems(permissions).catch(() => []), deviceItems(permissions).catch(() => [])]).then(([queries, devices]) => {
    // Only into a palette still open: one closed meanwhile stays closed.
    if ((queries.length || devices.length) && currentOverlayList()?.title === t('palette.title')) show([...known, ...queries, ...devices]);
  });
}
