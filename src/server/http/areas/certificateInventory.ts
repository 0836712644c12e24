import type { AppContext } from '../../context.js';
import { createCustomCertificate, deleteCustomCertificate, listCustomCertificates, readCustomCertificate, updateCustomCertificate, type CustomCertificateBody } from '../../certificates/customCertificates.js';
import type { Queryable } from '../../db/database.js';
import { exportInventory, type InventoryExport } from '../../inventory/exports.js';
import { searchInventory, type InventorySearch } from '../../inventory/search.js';
import { resolveSnapshot } from '../../inventory/snapshots.js';
import { notFound } from '../errors.js';
import { pageWindow, paginated, type ListQuery } from '../pagination.js';
import { callerOf, type RouteCatalogue } from '../routes.js';
import { containsPattern } from '../../db/likePatterns.js';
import { snapshotConnections } from '../../inventory/snapshotConnections.js';

type PlaceQuery = ListQuery & { certificate?: string; device?: string; index_id?: number };
type AssetRow = { asset_id: string; fields: Record<string, unknown[]> };
type PlaceRow = {
  certificate_id: string; certificate_name: string | null; host: string; port: number | null; sni: string | null; device_id: string | null; device_name: string | null;
  chain: string[]; chain_verified: boolean | null; verification_error: string | null; tls_version: string | null; adapter: string; connection_id: number; installed: boolean;
};

const contentTypes = { csv: 'text/csv; charset=utf-8', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } as const;
// The places a detail answers inline; the rest are paged through /certificates/places.
const placesInDetail = 500;

/** A certificate of a snapshot by its id, its SHA-256 fingerprint, or its name (case-insensitive). */
async function readCertificate(db: Queryable, discoveryId: number, idOrName: string): Promise<AssetRow> {
  const select = "select asset_id, fields from snapshot_assets where discovery_id = $1 and entity = 'certificate'";
  for (const [condition, value] of [['asset_id = $2', idOrName], ["fields->'FingerprintSha256'->>0 = upper($2)", idOrName], ["lower(fields->'Name'->>0) = lower($2)", idOrName]] as const) {
    const [asset] = await db.query<AssetRow>(`${select} and ${condition} order by asset_id limit 1`, [discoveryId, value]);
    if (asset) return asset;
  }
  throw notFound();
}

async function listPlaces(db: Queryable, discoveryId: number, query: PlaceQuery, limit: number, offset: number): Promise<{ count: number; rows: PlaceRow[] }> {
  const search = query.search ? containsPattern(query.search) : null;
  const filter = `p.discovery_id = $1 and ($2::text is null or p.certificate_asset = $2) and ($3::text is null or p.device_asset = $3)
    and ($4::text is null or p.host ilike $4 or p.sni ilike $4 or d.fields->'Hostname'->>0 ilike $4 or c.fields->'Name'->>0 ilike $4)`;
  const from = `from snapshot_certificate_places p
    left join snapshot_assets d on d.discovery_id = p.discovery_id and d.entity = 'device' and d.asset_id = p.device_asset
    left join snapshot_assets c on c.discovery_id = p.discovery_id and c.entity = 'certificate' and c.asset_id = p.certificate_asset`;
  const params = [discoveryId, query.certificate ?? null, query.device ?? null, search];
  const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count ${from} where ${filter}`, params);
  const rows = await db.query<PlaceRow>(
    `select p.certificate_asset as certificate_id, c.fields->'Name'->>0 as certificate_name, p.host, p.port, p.sni, p.device_asset as device_id, d.fields->'Hostname'->>0 as device_name,
            p.chain, p.chain_verified, p.verification_error, p.tls_version, p.adapter, p.connection_id, p.installed
       ${from} where ${filter} order by p.host, p.port nulls first, p.sni nulls first, p.certificate_asset limit $5 offset $6`,
    [...params, limit, offset],
  );
  return { count, rows };
}

/** The chain of a certificate, leaf first: each link as the snapshot knows it (an issuer no source reported is named by its fingerprint only). */
async function chainOf(db: Queryable, discoveryId: number, fingerprints: string[]) {
  if (!fingerprints.length) return [];
  const rows = await db.query<{ asset_id: string; fingerprint: string; name: string | null; issuer: string | null; not_after: string | null; expiry_status: string | null; self_signed: boolean | null }>(
    `select asset_id, fields->'FingerprintSha256'->>0 as fingerprint, fields->'Name'->>0 as name, fields->'Issuer'->>0 as issuer, fields->'NotAfter'->>0 as not_after,
            fields->'ExpiryStatus'->>0 as expiry_status, (fields->'SelfSigned'->>0)::boolean as self_signed
       from snapshot_assets where discovery_id = $1 and entity = 'certificate' and fields->'FingerprintSha256'->>0 = any($2::text[])`,
    [discoveryId, fingerprints],
  );
  const byFingerprint = new Map(rows.map((row) => [row.fingerprint, row]));
  return fingerprints.map((fingerprint, position) => {
    const row = byFingerprint.get(fingerprint);
    return { position, fingerprint_sha256: fingerprint, id: row?.asset_id ?? null, name: row?.name ?? null, issuer: row?.issuer ?? null, not_after: row?.not_after ?? null, expiry_status: row?.expiry_status ?? null, self_signed: row?.self_signed ?? null };
  });
}

/**
 * The certificate inventory: search (the device search body), detail with chain, places and devices, the places
 * list, export, and the custom certificates administrators upload.
 */
export function registerCertificateRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  routes.add({
    method: 'POST', url: '/certificates/certificates', name: 'certificates.search', summary: 'Search the certificate inventory', access: 'users.view_certificates', body: 'cartograph:api/inventory-search',
    handler: (request) => searchInventory(db, callerOf(request), 'certificate', request.body as InventorySearch),
  });
  routes.add({
    method: 'POST', url: '/certificates/certificates/:id', name: 'certificates.detail', summary: 'One certificate with its chain, the places it is served and the devices serving it',
    access: 'users.view_certificate_detail', params: 'cartograph:api/asset-params', body: 'cartograph:api/inventory-detail',
    handler: async (request) => {
      const discoveryId = await resolveSnapshot(db, callerOf(request).companyId, (request.body as { index_id?: number | null } | undefined)?.index_id);
      const asset = await readCertificate(db, discoveryId, (request.params as { id: string }).id);
      const places = await listPlaces(db, discoveryId, { certificate: asset.asset_id }, placesInDetail, 0);
      const devices = await db.query<{ id: string; hostname: string | null; places: number }>(
        `select p.device_asset as id, d.fields->'Hostname'->>0 as hostname, count(*)::int as places
           from snapshot_certificate_places p join snapshot_assets d on d.discovery_id = p.discovery_id and d.entity = 'device' and d.asset_id = p.device_asset
          where p.discovery_id = $1 and p.certificate_asset = $2 group by 1, 2 order by lower(d.fields->'Hostname'->>0), 1 limit 500`,
        [discoveryId, asset.asset_id],
      );
      const fingerprints = (asset.fields.ChainFingerprints ?? asset.fields.FingerprintSha256 ?? []).map(String);
      return { ...asset.fields, PrimaryKey: [asset.asset_id], index_id: discoveryId, connections: await snapshotConnections(db, discoveryId), chain: await chainOf(db, discoveryId, fingerprints), places: { count: places.count, results: places.rows }, devices };
    },
  });
  routes.add({
    method: 'GET', url: '/certificates/places', name: 'certificate_places.list', summary: 'Places (host, port, SNI) where certificates are served, with the device behind each',
    access: 'users.view_certificates', query: 'cartograph:api/certificate-place-query',
    handler: async (request) => {
      const query = request.query as PlaceQuery;
      const discoveryId = await resolveSnapshot(db, callerOf(request).companyId, query.index_id);
      const { limit, offset } = pageWindow(query);
      const { count, rows } = await listPlaces(db, discoveryId, query, limit, offset);
      return paginated(request, query, count, rows.map((row) => ({ ...row, index_id: discoveryId })));
    },
  });
  routes.add({
    method: 'POST', url: '/certificates/export', name: 'certificates.export', summary: 'Export the certificate list as CSV or XLSX (query, columns and sort as shown)',
    access: 'users.view_certificates', body: 'cartograph:api/inventory-export',
    handler: async (request, reply) => {
      const body = request.body as InventoryExport;
      const stream = await exportInventory(db, callerOf(request), 'certificate', body);
      reply.header('content-type', contentTypes[body.format]);
      reply.header('content-disposition', `attachment; filename="certificates-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}.${body.format}"`);
      reply.header('cache-control', 'no-store');
      return stream;
    },
  });

  const id = (request: { params: unknown }) => (request.params as { id: number }).id;
  routes.add({
    method: 'GET', url: '/certificates/custom-certificates', name: 'custom_certificates.list', summary: 'Custom certificates (uploaded or pasted), with their leaf certificate read',
    access: 'certificates.view_customcertificate', query: 'cartograph:api/list-query',
    handler: async (request) => {
      const query = request.query as ListQuery;
      const { limit, offset } = pageWindow(query);
      const { count, rows } = await listCustomCertificates(db, callerOf(request).companyId, query.search?.trim() || null, limit, offset);
      return paginated(request, query, count, rows);
    },
  });
  routes.add({
    method: 'POST', url: '/certificates/custom-certificates', name: 'custom_certificates.create', summary: 'Upload a custom certificate: PEM, DER, PKCS#7, or PKCS#12 with its password (used once, never stored); private keys are refused',
    access: 'certificates.add_customcertificate', body: 'cartograph:api/custom-certificate-create', status: 201,
    handler: (request) => {
      const caller = callerOf(request);
      return createCustomCertificate(db, caller.companyId, caller.userId, request.body as CustomCertificateBody);
    },
  });
  routes.add({
    method: 'GET', url: '/certificates/custom-certificates/:id', name: 'custom_certificates.read', summary: 'One custom certificate', access: 'certificates.view_customcertificate', params: 'cartograph:api/id-params',
    handler: (request) => readCustomCertificate(db, callerOf(request).companyId, id(request)),
  });
  routes.add({
    method: 'PUT', url: '/certificates/custom-certificates/:id', name: 'custom_certificates.update', summary: 'Rename a custom certificate, or replace its certificate', access: 'certificates.change_customcertificate',
    params: 'cartograph:api/id-params', body: 'cartograph:api/custom-certificate-update',
    handler: (request) => updateCustomCertificate(db, callerOf(request).companyId, id(request), request.body as CustomCertificateBody),
  });
  routes.add({
    method: 'DELETE', url: '/certificates/custom-certificates/:id', name: 'custom_certificates.delete', summary: 'Delete a custom certificate', access: 'certificates.delete_customcertificate', params: 'cartograph:api/id-params',
    handler: async (request) => {
      await deleteCustomCertificate(db, callerOf(request).companyId, id(request));
    },
  });
}
