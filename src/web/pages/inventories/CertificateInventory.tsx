import { t } from '../../app/i18n/messages';
import { InventoryList } from './InventoryList';
import { certificateInventory } from './inventoryKinds';

/** The certificate inventory list (`/certificate-inventory`), with a way to the custom certificates added by hand. */
export function CertificateInventory() {
  return <InventoryList kind={certificateInventory} links={[{ to: '/certificate-inventory/custom-certificate', label: t('inventories.customCertificates'), permission: 'certificates.view_customcertificate' }]} />;
}
