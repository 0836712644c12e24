import { assignTags, refreshDeviceTags, tagKind, unassignTags } from '../../inventory/tags.js';
import type { ActionRunner } from '../actionTypes.js';
import { allTargets } from '../actionTypes.js';

type TagParameters = { operation: 'add' | 'remove'; tags: string[] };

/** Adds or removes device tags on every target, as the devices' bulk update does. */
export const tagRunner: ActionRunner = {
  entities: ['device'],
  // Tagging a device again with the same tags changes nothing.
  resumable: true,
  async run({ context, companyId, parameters, discoveryId }, targets) {
    const { operation, tags } = parameters as TagParameters;
    const assetIds = targets.map((target) => target.assetId);
    await context.db.transaction(async (connection) => {
      const rows = await connection.query<{ id: number; name: string }>(
        "select id, document->>'name' as name from resources where kind = $1 and company_id = $2 and lower(document->>'name') = any($3::text[])",
        [tagKind, companyId, tags.map((name) => name.toLowerCase())],
      );
      if (operation === 'add') {
        for (const name of tags.filter((wanted) => !rows.some((row) => row.name.toLowerCase() === wanted.toLowerCase()))) {
          const [row] = await connection.query<{ id: number }>('insert into resources (kind, company_id, document) values ($1, $2, $3) returning id', [tagKind, companyId, JSON.stringify({ name, description: '', color: '#5b6b8c' })]);
          rows.push({ id: row.id, name });
        }
        await assignTags(connection, companyId, rows.map((row) => row.id), discoveryId, assetIds);
      } else {
        await unassignTags(connection, companyId, rows.map((row) => row.id), discoveryId, assetIds);
      }
      await refreshDeviceTags(connection, companyId, discoveryId, operation === 'add' ? assetIds : null);
    });
    return allTargets(targets, { status: 'succeeded', detail: `${operation === 'add' ? 'Tagged' : 'Untagged'} ${tags.join(', ')}` });
  },
};
