import { AssetPreviewPage } from './AssetPreviewPage';
import { serviceInventory } from './inventoryKinds';

/** One service's preview (`/service-inventory/preview?id=…&discoveryId=…`). */
export function ServicePreview() {
  return <AssetPreviewPage kind={serviceInventory} />;
}
