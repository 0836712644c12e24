import { t } from '../../app/i18n/messages';
import { formatNumber } from '../../../core/format/numbers';
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
  if (detail.isPending) return <Spinner label={t('inventories.loadingDetails')} />;
  if (detail.isError) return <ErrorState title={t('inventories.detailsCouldNotLoaded')} message={detail.error.message} onRetry={() => void detail.refetch()} />;
  const certificate = detail.data;
  const discoveryId = certificate.index_id;
  const first = (field: string) => (certificate[field] as unknown[] | undefined)?.[0];
  const weaknesses = (certificate.Weaknesses as string[] | undefined) ?? [];
  const tabs = [
    { id: 'basic', label: t('inventories.basicInfo'), content: <FieldFacts asset={certificate} keys={ownFieldKeys(certificate, fieldMap)} fieldMap={fieldMap} /> },
    {
      id: 'chain', label: t('inventories.chainLength', { length: certificate.chain.length }),
      content: (
        <Table
          caption={t('inventories.certificateChainLeafFirst')}
          columns={[
            { id: 'position', header: '#', align: 'end', cell: (row: ChainLink) => row.position },
            { id: 'name', header: t('inventories.certificate'), cell: (row: ChainLink) => (row.id ? <AssetLink kind={certificateInventory} id={row.id} discoveryId={discoveryId} name={row.name} /> : row.name ?? '-') },
            { id: 'issuer', header: t('inventories.issuer'), cell: (row: ChainLink) => row.issuer ?? '-' },
            { id: 'not_after', header: t('inventories.expires'), cell: (row: ChainLink) => formatDate(row.not_after) },
            { id: 'expiry', header: t('inventories.expiry'), cell: (row: ChainLink) => <ExpiryBadge status={row.expiry_status} /> },
            { id: 'fingerprint', header: t('inventories.sha256Fingerprint'), cell: (row: ChainLink) => <code className="inventory-code">{row.fingerprint_sha256}</code> },
          ]}
          rows={certificate.chain}
          rowKey={(row) => `${row.position}-${row.fingerprint_sha256}`}
          empty={<EmptyState title={t('inventories.noChainKnown')} description={t('inventories.noSourceReportedChain')} />}
        />
      ),
    },
    { id: 'places', label: t('inventories.placesServedCount', { count: certificate.places.count }), content: <CertificatePlacesTable filter={{ certificate: certificate.PrimaryKey[0] }} discoveryId={discoveryId} /> },
    {
      id: 'devices', label: t('inventories.devicesLength', { length: certificate.devices.length }),
      content: (
        <Table
          caption={t('inventories.devicesServingCertificate')}
          columns={[
            { id: 'device', header: t('inventories.device'), cell: (row: CertificateDevice) => <AssetLink kind={deviceInventory} id={row.id} discoveryId={discoveryId} name={row.hostname} /> },
            { id: 'places', header: t('inventories.places'), align: 'end', cell: (row: CertificateDevice) => formatNumber(row.places) },
          ]}
          rows={certificate.devices}
          rowKey={(row) => row.id}
          empty={<EmptyState title={t('inventories.noDeviceInventoryServes')} />}
        />
      ),
    },
  ];
  return (
    <section className="inventory-page">
      <PageHeader
        title={name}
        description={t('inventories.issuedByExpiresSnapshot', { issuer: String(first('IssuerCommonName') ?? first('Issuer') ?? t('inventories.anUnknownIssuer')), expires: formatDate(first('NotAfter')), discoveryId })}
        actions={
          <span className="query-builder__actions">
            <ExpiryBadge status={first('ExpiryStatus')} />
            {first('SelfSigned') === true && <Badge tone="warning">{t('inventories.selfSigned')}</Badge>}
            {weaknesses.map((weakness) => <Badge key={weakness} tone="danger">{weakness}</Badge>)}
          </span>
        }
      />
      <Card>
        <Tabs label={t('inventories.nameDetails', { name })} tabs={tabs} />
      </Card>
    </section>
  );
}
