import { t } from '../../app/i18n/messages';
import { formatNumber } from '../../../core/format/numbers';
import { Card, ErrorState, PageHeader, Spinner, Tabs } from '../../ui';
import { FieldFacts } from './facts';
import { ownFieldKeys } from './fieldValues';
import { useInventoryDetail } from './inventoryDetail';
import { serviceInventory } from './inventoryKinds';
import { ServiceInstancesTable } from './ServiceInstancesTable';
import './inventories.css';

type ServiceDetailResponse = Record<string, unknown> & { PrimaryKey: [string]; index_id: number };

/** `/service-inventory/detail/{primaryKey}/{discoveryId}`: one service and the devices (or hosts) it runs on, with state, start type, account and port. */
export function ServiceDetail() {
  const { detail, fieldMap, name } = useInventoryDetail<ServiceDetailResponse>(serviceInventory);
  if (detail.isPending) return <Spinner label={t('inventories.loadingDetails')} />;
  if (detail.isError) return <ErrorState title={t('inventories.detailsCouldNotLoaded')} message={detail.error.message} onRetry={() => void detail.refetch()} />;
  const service = detail.data;
  const discoveryId = service.index_id;
  const kinds = ((service.Kinds as unknown[] | undefined) ?? []).join(', ');
  const devices = Number((service.DeviceCount as unknown[] | undefined)?.[0] ?? 0);
  const tabs = [
    { id: 'devices', label: t('inventories.devicesDevices', { devices: formatNumber(devices) }), content: <ServiceInstancesTable filter={{ service: service.PrimaryKey[0] }} discoveryId={discoveryId} /> },
    { id: 'basic', label: t('inventories.basicInfo'), content: <FieldFacts asset={service} keys={ownFieldKeys(service, fieldMap)} fieldMap={fieldMap} /> },
  ];
  return (
    <section className="inventory-page">
      <PageHeader title={name} description={kinds ? t('inventories.kindsServiceSnapshotOfDiscovery', { kinds, discoveryId }) : t('inventories.snapshotOfDiscovery', { discoveryId })} />
      <Card>
        <Tabs label={t('inventories.nameDetails', { name })} tabs={tabs} />
      </Card>
    </section>
  );
}
