import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useEffect } from 'react';
import { setBreadcrumb } from '../../app/shell/breadcrumb';
import { assetDetailQuery, discoveryConfigurationQuery, type FieldMap } from './inventoryApi';
import type { InventoryKind } from './inventoryKinds';

/**
 * What every detail page (`/…-inventory/detail/{id}/{discoveryId}`) reads: the asset of that snapshot, the
 * inventory's field map, and the asset's name (in the breadcrumb as well).
 */
export function useInventoryDetail<Detail extends Record<string, unknown>>(kind: InventoryKind) {
  const params = useParams({ strict: false }) as Record<string, string | undefined>;
  const id = params[kind.idParam] ?? '';
  const discoveryId = Number(params.discoveryId);
  const configuration = useQuery(discoveryConfigurationQuery());
  const detail = useQuery(assetDetailQuery<Detail>(kind.searchPath, id, discoveryId));
  const fieldMap = (configuration.data?.[kind.fieldMapKey] ?? {}) as FieldMap;
  const name = detail.data ? String((detail.data[kind.nameField] as unknown[] | undefined)?.[0] ?? id) : id;
  useEffect(() => setBreadcrumb([{ label: kind.title, to: kind.basePath }, { label: name }]), [kind, name]);
  return { id, discoveryId, detail, fieldMap, name };
}
