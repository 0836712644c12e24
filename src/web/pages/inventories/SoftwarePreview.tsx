import { AssetPreviewPage } from './AssetPreviewPage';
import { softwareInventory } from './inventoryKinds';

/** One software's preview (`/software-inventory/preview?id=…&discoveryId=…`). */
export function SoftwarePreview() {
  return <AssetPreviewPage kind={softwareInventory} />;
}
