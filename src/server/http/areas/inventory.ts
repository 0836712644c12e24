import type { AppContext } from '../../context.js';
import { inventoryDetail, searchInventory, type InventorySearch } from '../../inventory/search.js';
import { callerOf, type Access, type RouteCatalogue } from '../routes.js';
import { registerCertificateRoutes } from './certificateInventory.js';
import { registerInventoryExtraRoutes } from './inventoryExtras.js';
import { registerSavedQueryRoutes } from './savedQueries.js';
import { registerServiceLicenseRoutes } from './serviceLicenseInventory.js';
import { registerSoftwareInventoryRoutes } from './softwareInventory.js';
import { registerTagRoutes } from './tags.js';

type Inventory = { path: string; entity: string; name: string; list: Access; detail: Access };

// The device and user inventories, at the reference API's paths.
const inventories: Inventory[] = [
  { path: '/devices/devices', entity: 'device', name: 'devices', list: 'users.view_devices', detail: 'users.view_device_detail' },
  { path: '/userinventory/users', entity: 'user', name: 'user_inventory', list: 'users.view_user_inventory', detail: 'users.view_user_inventory_detail' },
];

/** Search and detail of each inventory over its published snapshots. */
export function registerInventoryRoutes(routes: RouteCatalogue, context: AppContext): void {
  for (const inventory of inventories) {
    routes.add({
      method: 'POST', url: inventory.path, name: `${inventory.name}.search`, summary: `Search the ${inventory.entity} inventory`, access: inventory.list, body: 'cartograph:api/inventory-search',
      handler: (request) => searchInventory(context.db, callerOf(request), inventory.entity, request.body as InventorySearch),
    });
    routes.add({
      method: 'POST', url: `${inventory.path}/:id`, name: `${inventory.name}.detail`, summary: `One ${inventory.entity} with every source's record`, access: inventory.detail,
      params: 'cartograph:api/asset-params', body: 'cartograph:api/inventory-detail',
      handler: (request) =>
        inventoryDetail(context.db, callerOf(request).companyId, inventory.entity, (request.params as { id: string }).id, (request.body as { index_id?: number | null } | undefined)?.index_id),
    });
  }
  registerSavedQueryRoutes(routes, context);
  registerTagRoutes(routes, context);
  registerInventoryExtraRoutes(routes, context);
  registerSoftwareInventoryRoutes(routes, context);
  registerServiceLicenseRoutes(routes, context);
  registerCertificateRoutes(routes, context);
}
