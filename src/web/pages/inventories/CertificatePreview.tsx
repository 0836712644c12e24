import { AssetPreviewPage } from './AssetPreviewPage';
import { certificateInventory } from './inventoryKinds';

/** One certificate's preview (`/certificate-inventory/preview?id=…&discoveryId=…`). */
export function CertificatePreview() {
  return <AssetPreviewPage kind={certificateInventory} />;
}
