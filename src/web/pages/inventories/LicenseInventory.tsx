import { InventoryList } from './InventoryList';
import { licenseInventory } from './inventoryKinds';

/** The license inventory list (`/license-inventory`). */
export function LicenseInventory() {
  return <InventoryList kind={licenseInventory} />;
}
