import { AssetPreviewPage } from './AssetPreviewPage';
import { userInventory } from './inventoryKinds';

/** One user's preview (`/user-inventory/preview?id=…&discoveryId=…`). */
export function UserPreview() {
  return <AssetPreviewPage kind={userInventory} />;
}
