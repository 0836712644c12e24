import { formatDate } from '../../../core/dates';
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

/** Seats bought against seats used: "Over-used by 12", "3 free", or "Within its seats". */
export function SeatsBadge({ license }: { license: LicenseDetailResponse }) {
  const overUse = Number(first(license, 'OverUse') ?? 0);
  if (first(license, 'SeatsPurchased') === undefined) return <Badge tone="neutral">Seats bought unknown</Badge>;
  if (overUse > 0) return <Badge tone="danger">Over-used by {overUse.toLocaleString()}</Badge>;
  const free = Number(first(license, 'SeatsFree') ?? 0);
  return <Badge tone={free > 0 ? 'success' : 'warning'}>{free > 0 ? `${free.toLocaleString()} free` : 'Every seat in use'}</Badge>;
}

const entitlementFields = ['LicenseName', 'Sku', 'SeatsPurchased', 'SeatsUsed', 'SeatsFree', 'Cost', 'Currency', 'PurchaseDate', 'ExpirationDate'];

/** `/license-inventory/detail/{licenseId}/{discoveryId}`: seats bought, used, free and over-use, who and what uses them, and each source's entitlement. */
export function LicenseDetail() {
  const { detail, fieldMap, name } = useInventoryDetail<LicenseDetailResponse>(licenseInventory);
  if (detail.isPending) return <Spinner label="Loading details" />;
  if (detail.isError) return <ErrorState title="The details could not be loaded" message={detail.error.message} onRetry={() => void detail.refetch()} />;
  const license = detail.data;
  const discoveryId = license.index_id;
  const softwareId = first(license, 'SoftwareId') as string | undefined;
  const cost = first(license, 'Cost');
  const summary: Fact[] = [
    ['Seats purchased', license.SeatsPurchased ?? [], 'long'],
    ['Seats used', license.SeatsUsed ?? [], 'long'],
    ['Seats free', license.SeatsFree ?? [], 'long'],
    ['Over-use', license.OverUse ?? [], 'long'],
    ['Assigned users', license.AssignedUsers ?? [], 'long'],
    ['Devices with the software', license.InstalledDevices ?? [], 'long'],
    ['Expires', license.ExpirationDate ?? [], 'date'],
    ['Cost', cost === undefined ? [] : [`${Number(cost).toLocaleString()}${first(license, 'Currency') ? ` ${String(first(license, 'Currency'))}` : ''}`]],
  ];
  const sources = license.sources ?? [];
  const tabs = [
    {
      id: 'seats', label: 'Seats',
      content: (
        <>
          <Facts entries={summary} />
          {softwareId && <p>Licensed software: <AssetLink kind={softwareInventory} id={softwareId} discoveryId={discoveryId} name={String(first(license, 'SoftwareName') ?? name)} /></p>}
        </>
      ),
    },
    { id: 'users', label: `Assigned users (${Number(first(license, 'AssignedUsers') ?? 0).toLocaleString()})`, content: <LicenseAssignmentsTable licenseId={license.PrimaryKey[0]} discoveryId={discoveryId} /> },
    {
      id: 'devices', label: `Devices (${Number(first(license, 'InstalledDevices') ?? 0).toLocaleString()})`,
      content: softwareId
        ? <InstallationsTable filter={{ software: softwareId }} discoveryId={discoveryId} />
        : <EmptyState title="No software of the inventory matches this license" description="Its installations cannot be counted: name the licensed software in the source or the mapping file." />,
    },
    {
      id: 'entitlements', label: `Entitlements (${sources.length})`,
      content: (
        <Table
          caption="Entitlements as each source holds them"
          columns={[
            { id: 'source', header: 'Source', cell: (row: SourceRecordResponse) => row.connection_name },
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
          empty={<EmptyState title="No entitlement record" />}
        />
      ),
    },
    { id: 'basic', label: 'Basic info', content: <FieldFacts asset={license} keys={ownFieldKeys(license, fieldMap)} fieldMap={fieldMap} /> },
  ];
  const vendor = first(license, 'Vendor');
  return (
    <section className="inventory-page">
      <PageHeader title={name} description={`${vendor ? `${String(vendor)} · ` : ''}Snapshot of discovery #${discoveryId}`} actions={<SeatsBadge license={license} />} />
      <Card>
        <Tabs label={`${name} details`} tabs={tabs} />
      </Card>
    </section>
  );
}
