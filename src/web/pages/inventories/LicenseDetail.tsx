import { t } from '../../app/i18n/messages';
import { formatDate } from '../../../core/dates';
import { formatCurrency } from '../../../core/format/numbers';
import { Badge, Card, EmptyState, ErrorState, PageHeader, Spinner, Table, Tabs } from '../../ui';
import { AssetLink } from './assetLinks';
import { Facts, FieldFacts, type Fact } from './facts';
import { ownFieldKeys } from './fieldValues';
import type { SourceRecordResponse } from './inventoryApi';
import { useInventoryDetail } from './inventoryDetail';
import { licenseInventory, softwareInventory } from './inventoryKinds';
import { InstallationsTable } from './InstallationsTable';
import { LicenseAssignmentsTable } from './LicenseAssignmentsTable';
import './inventories.css';

type LicenseDetailResponse = Record<string, unknown> & { PrimaryKey: [string]; index_id: number; sources?: SourceRecordResponse[] };

const first = (license: LicenseDetailResponse, field: string): unknown => (license[field] as unknown[] | undefined)?.[0];

/** Whether a license has expired: as its discovery said, or since, by its expiry date. */
export function licenseExpired(license: LicenseDetailResponse, now = new Date()): boolean {
  const expiration = first(license, 'ExpirationDate');
  return first(license, 'Expired') === true || (typeof expiration === 'string' && new Date(expiration).getTime() < now.getTime());
}

/** Seats bought against seats used: "Expired" (an expired license frees no seat), "Over-used by 12", "3 free", or "Every seat in use". */
export function SeatsBadge({ license }: { license: LicenseDetailResponse }) {
  if (licenseExpired(license)) return <Badge tone="danger">{t('inventories.licenseExpired')}</Badge>;
  const overUse = Number(first(license, 'OverUse') ?? 0);
  if (first(license, 'SeatsPurchased') === undefined) return <Badge tone="neutral">{t('inventories.seatsBoughtUnknown')}</Badge>;
  if (overUse > 0) return <Badge tone="danger">{t('inventories.overUsedOveruse', { overUse: overUse.toLocaleString() })}</Badge>;
  const free = Number(first(license, 'SeatsFree') ?? 0);
  return <Badge tone={free > 0 ? 'success' : 'warning'}>{free > 0 ? t('inventories.freeFree', { free: free.toLocaleString() }) : t('inventories.everySeatUse')}</Badge>;
}

/** Which count "Seats used" is, and for which seat type: "Assigned users (per user)". */
function seatsUsedCount(license: LicenseDetailResponse): string[] {
  const by = first(license, 'SeatsUsedBy');
  if (typeof by !== 'string') return [];
  const count = { reported: t('inventories.seatsUsedByReported'), assigned_users: t('inventories.seatsUsedByAssignedUsers'), installed_devices: t('inventories.seatsUsedByInstalledDevices') }[by] ?? by;
  const seatType = first(license, 'SeatType');
  return [seatType === 'user' ? t('inventories.seatsCountPerUser', { count }) : seatType === 'device' ? t('inventories.seatsCountPerDevice', { count }) : count];
}

const entitlementFields = ['LicenseName', 'Sku', 'SeatsPurchased', 'SeatsUsed', 'SeatsFree', 'Cost', 'Currency', 'PurchaseDate', 'ExpirationDate'];

/** `/license-inventory/detail/{licenseId}/{discoveryId}`: seats bought, used, free and over-use, who and what uses them, and each source's entitlement. */
export function LicenseDetail() {
  const { detail, fieldMap, name } = useInventoryDetail<LicenseDetailResponse>(licenseInventory);
  if (detail.isPending) return <Spinner label={t('inventories.loadingDetails')} />;
  if (detail.isError) return <ErrorState title={t('inventories.detailsCouldNotLoaded')} message={detail.error.message} onRetry={() => void detail.refetch()} />;
  const license = detail.data;
  const discoveryId = license.index_id;
  const softwareId = first(license, 'SoftwareId') as string | undefined;
  const cost = first(license, 'Cost');
  const summary: Fact[] = [
    [t('inventories.seatsPurchased'), license.SeatsPurchased ?? [], 'long'],
    [t('inventories.seatsUsed'), license.SeatsUsed ?? [], 'long'],
    [t('inventories.seatsUsedCounts'), seatsUsedCount(license)],
    [t('inventories.seatsUsedWhy'), (license.SeatsUsedReason as string[] | undefined) ?? []],
    [t('inventories.seatsFree'), license.SeatsFree ?? [], 'long'],
    [t('inventories.overUse'), license.OverUse ?? [], 'long'],
    [t('inventories.assignedUsers'), license.AssignedUsers ?? [], 'long'],
    [t('inventories.devicesWithTheSoftware'), license.InstalledDevices ?? [], 'long'],
    [t('inventories.expires'), license.ExpirationDate ?? [], 'date'],
    [t('inventories.cost'), cost === undefined ? [] : [formatCurrency(cost, first(license, 'Currency') ? String(first(license, 'Currency')) : null)]],
  ];
  const sources = license.sources ?? [];
  const tabs = [
    {
      id: 'seats', label: t('inventories.seats'),
      content: (
        <>
          <Facts entries={summary} />
          {softwareId && <p>{t('inventories.licensedSoftware')}{' '}<AssetLink kind={softwareInventory} id={softwareId} discoveryId={discoveryId} name={String(first(license, 'SoftwareName') ?? name)} /></p>}
        </>
      ),
    },
    { id: 'users', label: t('inventories.assignedUsersCount', { count: Number(first(license, 'AssignedUsers') ?? 0).toLocaleString() }), content: <LicenseAssignmentsTable licenseId={license.PrimaryKey[0]} discoveryId={discoveryId} /> },
    {
      id: 'devices', label: t('inventories.devicesCount', { count: Number(first(license, 'InstalledDevices') ?? 0).toLocaleString() }),
      content: softwareId
        ? <InstallationsTable filter={{ software: softwareId }} discoveryId={discoveryId} />
        : <EmptyState title={t('inventories.noSoftwareInventoryMatches')} description={t('inventories.installationsCannotCountedName')} />,
    },
    {
      id: 'entitlements', label: t('inventories.entitlementsLength', { length: sources.length }),
      content: (
        <Table
          caption={t('inventories.entitlementsEachSourceHolds')}
          columns={[
            { id: 'source', header: t('inventories.source'), cell: (row: SourceRecordResponse) => row.connection_name },
            ...entitlementFields.map((field) => ({
              id: field, header: fieldMap[field]?.label ?? field,
              cell: (row: SourceRecordResponse) => {
                const value = (row.fields[field] as unknown[] | undefined)?.[0];
                if (value === undefined || value === null) return '-';
                return field.endsWith('Date') ? formatDate(String(value), 'date') : String(value);
              },
            })),
          ]}
          rows={sources}
          rowKey={(row) => row.record_key}
          empty={<EmptyState title={t('inventories.noEntitlementRecord')} />}
        />
      ),
    },
    { id: 'basic', label: t('inventories.basicInfo'), content: <FieldFacts asset={license} keys={ownFieldKeys(license, fieldMap)} fieldMap={fieldMap} /> },
  ];
  const vendor = first(license, 'Vendor');
  return (
    <section className="inventory-page">
      <PageHeader title={name} description={vendor ? t('inventories.vendorSnapshotOfDiscovery', { vendor: String(vendor), discoveryId }) : t('inventories.snapshotOfDiscovery', { discoveryId })} actions={<SeatsBadge license={license} />} />
      <Card>
        <Tabs label={t('inventories.nameDetails', { name })} tabs={tabs} />
      </Card>
    </section>
  );
}
