import type { AppContext } from '../../context.js';
import { mergeDevices, unmergeDevice } from '../../inventory/mergeDecisions.js';
import { resolveSnapshot } from '../../inventory/snapshots.js';
import { notFound } from '../errors.js';
import { pageWindow, paginated, type ListQuery } from '../pagination.js';
import { callerOf, type RouteCatalogue } from '../routes.js';

type RecommendationRow = { id: number; score: number; reasons: string[]; left_asset: string; right_asset: string; left_fields: Record<string, unknown[]>; right_fields: Record<string, unknown[]>; left_records: string[]; right_records: string[] };

const summary = (id: string, fields: Record<string, unknown[]>) => ({ id, Hostname: fields.Hostname ?? [], Adapters: fields.Adapters ?? [], IpAddresses: fields.IpAddresses ?? [], 'OS.Type': fields['OS.Type'] ?? [] });

/** Merge recommendations (weak matches) and the analyst's merge, unmerge, accept and reject. */
export function registerMergeRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  const recommendationSelect = `select r.id, r.score, r.reasons, r.left_asset, r.right_asset, l.fields as left_fields, rt.fields as right_fields, l.record_keys as left_records, rt.record_keys as right_records
      from merge_recommendations r
      join snapshot_assets l on l.discovery_id = r.discovery_id and l.entity = r.entity and l.asset_id = r.left_asset
      join snapshot_assets rt on rt.discovery_id = r.discovery_id and rt.entity = r.entity and rt.asset_id = r.right_asset`;
  const loadRecommendation = async (companyId: number, id: number) => {
    const discoveryId = await resolveSnapshot(db, companyId, null);
    const [row] = await db.query<RecommendationRow>(`${recommendationSelect} where r.discovery_id = $1 and r.id = $2`, [discoveryId, id]);
    if (!row) throw notFound();
    return { discoveryId, row };
  };

  routes.add({
    method: 'GET', url: '/devices/merge-recommendations', name: 'merge_recommendations.list', summary: 'Devices that may be one machine (weak evidence), best first',
    access: 'users.view_device_merge_recommendation', query: 'cartograph:api/list-query',
    handler: async (request) => {
      const query = request.query as ListQuery;
      const discoveryId = await resolveSnapshot(db, callerOf(request).companyId, null);
      const { limit, offset } = pageWindow(query);
      const [{ count }] = await db.query<{ count: number }>('select count(*)::int as count from merge_recommendations where discovery_id = $1', [discoveryId]);
      const rows = await db.query<RecommendationRow>(`${recommendationSelect} where r.discovery_id = $1 order by r.score desc, r.id limit $2 offset $3`, [discoveryId, limit, offset]);
      return paginated(request, query, count, rows.map((row) => ({ id: row.id, score: row.score, reasons: row.reasons, index_id: discoveryId, left: summary(row.left_asset, row.left_fields), right: summary(row.right_asset, row.right_fields) })));
    },
  });
  routes.add({
    method: 'POST', url: '/devices/merge-recommendations/:id/accept', name: 'merge_recommendations.accept', summary: 'Merge the two devices of a recommendation',
    access: 'devices.merge_device', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const caller = callerOf(request);
      const { discoveryId, row } = await loadRecommendation(caller.companyId, (request.params as { id: number }).id);
      const merged = await mergeDevices(context, caller.companyId, caller.userId, discoveryId, [row.left_asset, row.right_asset]);
      return { id: merged.id, index_id: discoveryId };
    },
  });
  routes.add({
    method: 'POST', url: '/devices/merge-recommendations/:id/reject', name: 'merge_recommendations.reject', summary: 'Keep the two devices apart, now and in later discoveries',
    access: 'devices.merge_device', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const caller = callerOf(request);
      const { row } = await loadRecommendation(caller.companyId, (request.params as { id: number }).id);
      await db.query("insert into merge_decisions (company_id, entity, decision, left_record, right_record, decided_by) values ($1, 'device', 'split', $2, $3, $4)", [
        caller.companyId, row.left_records[0], row.right_records[0], caller.userId,
      ]);
      await db.query('delete from merge_recommendations where id = $1', [row.id]);
    },
  });
  routes.add({
    method: 'POST', url: '/devices/merge', name: 'devices.merge', summary: 'Merge devices that are one machine (kept by later discoveries)', access: 'devices.merge_device',
    body: 'cartograph:api/merge-request',
    handler: async (request) => {
      const caller = callerOf(request);
      const body = request.body as { assets: string[]; index_id?: number | null };
      const discoveryId = await resolveSnapshot(db, caller.companyId, body.index_id);
      const merged = await mergeDevices(context, caller.companyId, caller.userId, discoveryId, body.assets);
      return { id: merged.id, index_id: discoveryId, record_keys: merged.recordKeys };
    },
  });
  routes.add({
    method: 'POST', url: '/devices/unmerge', name: 'devices.unmerge', summary: 'Take source records out of a merged device (kept by later discoveries)', access: 'devices.merge_device',
    body: 'cartograph:api/unmerge-request',
    handler: async (request) => {
      const caller = callerOf(request);
      const body = request.body as { asset: string; records: string[]; index_id?: number | null };
      const discoveryId = await resolveSnapshot(db, caller.companyId, body.index_id);
      const assets = await unmergeDevice(context, caller.companyId, caller.userId, discoveryId, body.asset, body.records);
      return { index_id: discoveryId, devices: assets.map((asset) => ({ id: asset.id, record_keys: asset.recordKeys })) };
    },
  });
}
