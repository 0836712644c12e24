import { formatDate } from '../../../core/dates';
import { Badge, Card, EmptyState, ErrorState, PageHeader, Spinner, Table, Tabs } from '../../ui';
import { AssetLink } from './assetLinks';
import type { CertificatePlace, ChainLink } from './certificateApi';
import { ExpiryBadge } from './certificateBadges';
import { CertificatePlacesTable } from './CertificatePlacesTable';
import { FieldFacts } from './facts';
import { ownFieldKeys } from './fieldValues';
import { useInventoryDetail } from './inventoryDetail';
import { certificateInventory, deviceInventory } from './inventoryKinds';
import './inventories.css';

type CertificateDevice = { id: string; hostname: string | null; places: number };
type CertificateDetailResponse = Record<string, unknown> & {
  PrimaryKey: [string];
  index_id: number;
  chain: ChainLink[];
  places: { count: number; results: CertificatePlace[] };
  devices: CertificateDevice[];
};

/** `/certificate-inventory/detail/{name}/{discoveryId}`: one certificate, its chain, where it is served and the devices serving it. */
export function CertificateDetail() {
  const { detail, fieldMap, name } = useInventoryDetail<CertificateDetailResponse>(certificateInventory);
  if (detail.isPending) return <Spinner label="Loading details" />;
  if (detail.isError) return <ErrorState title="The details could not be loaded" message={detail.error.message} onRetry={() => void detail.refetch()} />;
  const certificate = detail.data;
  const discoveryId = certificate.index_id;
  const first = (field: string) => (certificate[field] as unknown[] | undefined)?.[0];
  const weaknesses = (certificate.Weaknesses as string[] | undefined) ?? [];
  const tabs = [
    { id: 'basic', label: 'Basic info', content: <FieldFacts asset={certificate} keys={ownFieldKeys(certificate, fieldMap)} fieldMap={fieldMap} /> },
    {
      id: 'chain', label: `Chain (${certificate.chain.length})`,
      content: (
        <Table
          caption="Certificate chain, leaf first"
          columns={[
            { id: 'position', header: '#', align: 'end', cell: (row: ChainLink) => row.position },
            { id: 'name', header: 'Certificate', cell: (row: ChainLink) => (row.id ? <AssetLink kind={certificateInventory} id={row.id} discoveryId={discoveryId} name={row.name} /> : row.name ?? '-') },
            { id: 'issuer', header: 'Issuer', cell: (row: ChainLink) => row.issuer ?? '-' },
            { id: 'not_after', header: 'Expires', cell: (row: ChainLink) => formatDate(row.not_after) },
            { id: 'expiry', header: 'Expiry', cell: (row: ChainLink) => <ExpiryBadge status={row.expiry_status} /> },
            { id: 'fingerprint', header: 'SHA-256 fingerprint', cell: (row: ChainLink) => <code className="inventory-code">{row.fingerprint_sha256}</code> },
          ]}
          rows={certificate.chain}
          rowKey={(row) => `${row.position}-${row.fingerprint_sha256}`}
          empty={<EmptyState title="No chain known" description="No source reported the chain this certificate is served with." />}
        />
      ),
    },
    { id: 'places', label: `Places served (${certificate.places.count})`, content: <CertificatePlacesTable filter={{ certificate: certificate.PrimaryKey[0] }} discoveryId={discoveryId} /> },
    {
      id: 'devices', label: `Devices (${certificate.devices.length})`,
      content: (
        <Table
          caption="Devices serving this certificate"
          columns={[
            { id: 'device', header: 'Device', cell: (row: CertificateDevice) => <AssetLink kind={deviceInventory} id={row.id} discoveryId={discoveryId} name={row.hostname} /> },
            { id: 'places', header: 'Places', align: 'end', cell: (row: CertificateDevice) => row.places.toLocaleString() },
          ]}
          rows={certificate.devices}
          rowKey={(row) => row.id}
          empty={<EmptyState title="No device of the inventory serves it" />}
        />
      ),
    },
  ];
  return (
    <section className="inventory-page">
      <PageHeader
        title={name}
        description={`Issued by ${String(first('IssuerCommonName') ?? first('Issuer') ?? 'an unknown issuer')} · expires ${formatDate(first('NotAfter'))} · snapshot of discovery #${discoveryId}`}
        actions={
          <span className="query-builder__actions">
            <ExpiryBadge status={first('ExpiryStatus')} />
            {first('SelfSigned') === true && <Badge tone="warning">Self-signed</Badge>}
            {weaknesses.map((weakness) => <Badge key={weakness} tone="danger">{weakness}</Badge>)}
          </span>
        }
      />
      <Card>
        <Tabs label={`${name} details`} tabs={tabs} />
      </Card>
    </section>
  );
}
