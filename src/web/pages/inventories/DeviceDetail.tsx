import { AssetDetail } from './AssetDetail';
import { deviceInventory } from './inventoryKinds';

/** One device of one snapshot (`/device-inventory/detail/{id}/{discoveryId}`). */
export function DeviceDetail() {
  return <AssetDetail kind={deviceInventory} />;
}
