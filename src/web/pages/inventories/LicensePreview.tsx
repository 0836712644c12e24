import { AssetPreviewPage } from './AssetPreviewPage';
import { licenseInventory } from './inventoryKinds';

/** One license's preview (`/license-inventory/preview?id=…&discoveryId=…`). */
export function LicensePreview() {
  return <AssetPreviewPage kind={licenseInventory} />;
}
