import { InventoryList } from './InventoryList';
import { userInventory } from './inventoryKinds';

/** The user inventory list (`/user-inventory`). */
export function UserInventory() {
  return <InventoryList kind={userInventory} />;
}
