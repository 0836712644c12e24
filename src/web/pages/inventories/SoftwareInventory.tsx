import { InventoryList } from './InventoryList';
import { softwareInventory } from './inventoryKinds';

/** The software inventory list (`/software-inventory`). */
export function SoftwareInventory() {
  return <InventoryList kind={softwareInventory} />;
}
