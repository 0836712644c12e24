import { AssetDetail } from './AssetDetail';
import { userInventory } from './inventoryKinds';

/** One user of one snapshot (`/user-inventory/detail/{id}/{discoveryId}`). */
export function UserDetail() {
  return <AssetDetail kind={userInventory} />;
}
