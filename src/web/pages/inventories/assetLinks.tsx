import { Link } from '@tanstack/react-router';
import { hasPermission } from '../../app/session/session';
import type { InventoryKind } from './inventoryKinds';

/** An asset's name linking to its detail when the user may open it; the bare name otherwise. */
export function AssetLink({ kind, id, discoveryId, name }: { kind: InventoryKind; id: string; discoveryId: number; name: string | null }) {
  const text = name || id;
  if (!hasPermission(kind.detailPermission)) return <>{text}</>;
  return <Link to={kind.detailPath} params={{ [kind.idParam]: id, discoveryId: String(discoveryId) }}>{text}</Link>;
}
