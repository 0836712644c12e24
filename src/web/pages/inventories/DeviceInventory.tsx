import { InventoryList } from './InventoryList';
import { deviceInventory } from './inventoryKinds';

/** The device inventory list (`/device-inventory`). */
export function DeviceInventory() {
  return <InventoryList kind={deviceInventory} />;
}
