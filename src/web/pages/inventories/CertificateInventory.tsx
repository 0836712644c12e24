import { InventoryList } from './InventoryList';
import { certificateInventory } from './inventoryKinds';

/** The certificate inventory list (`/certificate-inventory`). */
export function CertificateInventory() {
  return <InventoryList kind={certificateInventory} />;
}
