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
  if (detail.isPending) return <Spinner label="Loading details" />;
  if (detail.isError) return <ErrorState title="The details could not be loaded" message={detail.error.message} onRetry={() => void detail.refetch()} />;
  const software = detail.data;
  const discoveryId = software.index_id;
  const vendor = (software.Vendor as unknown[] | undefined)?.[0];
  const tabs = [
    { id: 'basic', label: 'Basic info', content: <FieldFacts asset={software} keys={ownFieldKeys(software, fieldMap)} fieldMap={fieldMap} /> },
    {
      id: 'versions', label: `Versions (${software.versions.length})`,
      content: (
        <Table
          caption="Versions"
          columns={[
            { id: 'version', header: 'Version', cell: (row: SoftwareDetailResponse['versions'][number]) => row.version },
            { id: 'devices', header: 'Devices', align: 'end', cell: (row: SoftwareDetailResponse['versions'][number]) => row.devices.toLocaleString() },
          ]}
          rows={software.versions}
          rowKey={(row) => row.version}
          empty={<EmptyState title="No version reported" />}
        />
      ),
    },
    { id: 'devices', label: 'Devices', content: <InstallationsTable filter={{ software: software.PrimaryKey[0] }} discoveryId={discoveryId} /> },
    {
      id: 'vulnerabilities', label: `Vulnerabilities (${software.vulnerabilities.length})`,
      content: (
        <Table
          caption="Vulnerabilities of this software"
          columns={[
            { id: 'cve_id', header: 'Vulnerability', cell: (row: SoftwareVulnerability) => <AssetLink kind={vulnerabilityInventory} id={row.id} discoveryId={discoveryId} name={row.cve_id ?? row.title} /> },
            { id: 'title', header: 'Title', cell: (row: SoftwareVulnerability) => row.title ?? '-' },
            { id: 'severity', header: 'Severity', cell: (row: SoftwareVulnerability) => <SeverityBadge severity={row.severity} /> },
            { id: 'score', header: 'Score', align: 'end', cell: (row: SoftwareVulnerability) => row.score ?? '-' },
          ]}
          rows={software.vulnerabilities}
          rowKey={(row) => row.id}
          empty={<EmptyState title="No known vulnerability" />}
        />
      ),
    },
  ];
  return (
    <section className="inventory-page">
      <PageHeader title={name} description={`${vendor ? `${String(vendor)} · ` : ''}Snapshot of discovery #${discoveryId}`} />
      <Card>
        <Tabs label={`${name} details`} tabs={tabs} />
      </Card>
    </section>
  );
}
