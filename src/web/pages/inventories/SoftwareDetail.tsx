import { t } from '../../app/i18n/messages';
import { Card, EmptyState, ErrorState, PageHeader, Spinner, Table, Tabs } from '../../ui';
import { AssetLink } from './assetLinks';
import { FieldFacts } from './facts';
import { SeverityBadge } from './FindingsTable';
import { ownFieldKeys } from './fieldValues';
import { useInventoryDetail } from './inventoryDetail';
import { softwareInventory, vulnerabilityInventory } from './inventoryKinds';
import { InstallationsTable } from './InstallationsTable';
import './inventories.css';

type SoftwareVulnerability = { id: string; cve_id: string | null; title: string | null; severity: string | null; score: number | null };
type SoftwareDetailResponse = Record<string, unknown> & {
  PrimaryKey: [string];
  index_id: number;
  versions: { version: string; devices: number }[];
  vulnerabilities: SoftwareVulnerability[];
};

/** `/software-inventory/detail/{softwareId}/{discoveryId}`: one software, its versions, the devices that have it and its vulnerabilities. */
export function SoftwareDetail() {
  const { detail, fieldMap, name } = useInventoryDetail<SoftwareDetailResponse>(softwareInventory);
  if (detail.isPending) return <Spinner label={t('inventories.loadingDetails')} />;
  if (detail.isError) return <ErrorState title={t('inventories.detailsCouldNotLoaded')} message={detail.error.message} onRetry={() => void detail.refetch()} />;
  const software = detail.data;
  const discoveryId = software.index_id;
  const vendor = (software.Vendor as unknown[] | undefined)?.[0];
  const tabs = [
    { id: 'basic', label: t('inventories.basicInfo'), content: <FieldFacts asset={software} keys={ownFieldKeys(software, fieldMap)} fieldMap={fieldMap} /> },
    {
      id: 'versions', label: t('inventories.versionsLength', { length: software.versions.length }),
      content: (
        <Table
          caption={t('inventories.versions')}
          columns={[
            { id: 'version', header: t('inventories.version'), cell: (row: SoftwareDetailResponse['versions'][number]) => row.version },
            { id: 'devices', header: t('inventories.devices'), align: 'end', cell: (row: SoftwareDetailResponse['versions'][number]) => row.devices.toLocaleString() },
          ]}
          rows={software.versions}
          rowKey={(row) => row.version}
          empty={<EmptyState title={t('inventories.noVersionReported')} />}
        />
      ),
    },
    { id: 'devices', label: t('inventories.devices'), content: <InstallationsTable filter={{ software: software.PrimaryKey[0] }} discoveryId={discoveryId} /> },
    {
      id: 'vulnerabilities', label: t('inventories.vulnerabilitiesLength', { length: software.vulnerabilities.length }),
      content: (
        <Table
          caption={t('inventories.vulnerabilitiesSoftware')}
          columns={[
            { id: 'cve_id', header: t('inventories.vulnerability'), cell: (row: SoftwareVulnerability) => <AssetLink kind={vulnerabilityInventory} id={row.id} discoveryId={discoveryId} name={row.cve_id ?? row.title} /> },
            { id: 'title', header: t('inventories.title'), cell: (row: SoftwareVulnerability) => row.title ?? '-' },
            { id: 'severity', header: t('inventories.severity'), cell: (row: SoftwareVulnerability) => <SeverityBadge severity={row.severity} /> },
            { id: 'score', header: t('inventories.score'), align: 'end', cell: (row: SoftwareVulnerability) => row.score ?? '-' },
          ]}
          rows={software.vulnerabilities}
          rowKey={(row) => row.id}
          empty={<EmptyState title={t('inventories.noKnownVulnerability')} />}
        />
      ),
    },
  ];
  return (
    <section className="inventory-page">
      <PageHeader title={name} description={vendor ? t('inventories.vendorSnapshotOfDiscovery', { vendor: String(vendor), discoveryId }) : t('inventories.snapshotOfDiscovery', { discoveryId })} />
      <Card>
        <Tabs label={t('inventories.nameDetails', { name })} tabs={tabs} />
      </Card>
    </section>
  );
}
