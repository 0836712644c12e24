import { AssetPreviewPage } from './AssetPreviewPage';
import { deviceInventory } from './inventoryKinds';

/** One device's preview (`/device-inventory/preview?id=…&discoveryId=…`). */
export function DevicePreview() {
  return <AssetPreviewPage kind={deviceInventory} />;
}
