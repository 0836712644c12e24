import { InventoryList } from './InventoryList';
import { serviceInventory } from './inventoryKinds';

/** The service inventory list (`/service-inventory`). */
export function ServiceInventory() {
  return <InventoryList kind={serviceInventory} />;
}
