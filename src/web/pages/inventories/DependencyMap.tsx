import { t } from '../../app/i18n/messages';
import { useQuery } from '@tanstack/react-query';
import { EmptyState, ErrorState, Spinner } from '../../ui';
import { AssetLink } from './assetLinks';
import { dependencyMapQuery, type MapLink, type MapNode } from './dependencyMapApi';
import { deviceInventory, softwareInventory, userInventory } from './inventoryKinds';
import './dependencyMap.css';

const kinds = { device: deviceInventory, user: userInventory, software: softwareInventory };
const [width, height, radius] = [720, 440, 165];
const center = { x: width / 2, y: height / 2 };

/** A link's qualifiers: the switch port and the VLAN, when the network source reported them. */
function linkDetail(link: MapLink | null): string {
  if (!link) return '';
  return [link.port && t('inventories.dependencyMapPort', { port: link.port }), link.vlan && t('inventories.dependencyMapVlan', { vlan: link.vlan })].filter(Boolean).join(', ');
}

/** "plugged into switch" from the device, "connected from" when the other device reported the link. */
const relationText = (link: MapLink | null) => (link ? (link.direction === 'in' ? t('inventories.dependencyMapReportedBy', { relation: link.relation }) : link.relation) : t('inventories.dependencyMapInstalled'));

/** Names longer than a node holds are cut with an ellipsis; the full name is the node's tooltip and in the list below. */
const short = (name: string) => (name.length > 22 ? `${name.slice(0, 21)}…` : name);

type Placed = { node: MapNode; link: MapLink | null; x: number; y: number };

/** The nodes on a circle around the device, neighbours first, then users, then software, starting at the top. */
function placed(links: MapLink[], software: MapNode[]): Placed[] {
  const items = [...links.map((link) => ({ node: link.node, link })), ...software.map((node) => ({ node, link: null }))];
  return items.map((item, index) => {
    const angle = (index / items.length) * 2 * Math.PI - Math.PI / 2;
    return { ...item, x: center.x + radius * 1.6 * Math.cos(angle), y: center.y + radius * Math.sin(angle) };
  });
}

function Graph({ name, nodes }: { name: string; nodes: Placed[] }) {
  return (
    <svg className="dependency-map" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={t('inventories.dependencyMapOf', { name })}>
      {nodes.map(({ node, link, x, y }, index) => (
        <g key={`edge-${index}`} className="dependency-map__edge">
          <line x1={center.x} y1={center.y} x2={x} y2={y} />
          {link && linkDetail(link) && <text x={(center.x + x) / 2} y={(center.y + y) / 2 - 4} textAnchor="middle">{linkDetail(link)}</text>}
          <title>{`${relationText(link)} ${node.name}`}</title>
        </g>
      ))}
      {nodes.map(({ node, x, y }, index) => (
        <g key={`node-${index}`} className={`dependency-map__node dependency-map__node--${node.entity}`} transform={`translate(${x} ${y})`}>
          <title>{node.name}</title>
          <rect x={-78} y={-14} width={156} height={28} rx={node.entity === 'user' ? 14 : 4} />
          <text textAnchor="middle" dy="0.35em">{short(node.name)}</text>
        </g>
      ))}
      <g className="dependency-map__node dependency-map__node--self" transform={`translate(${center.x} ${center.y})`}>
        <rect x={-88} y={-18} width={176} height={36} rx={6} />
        <text textAnchor="middle" dy="0.35em">{short(name)}</text>
      </g>
    </svg>
  );
}

function NodeList({ title, items, more, discoveryId }: { title: string; items: { node: MapNode; link: MapLink | null }[]; more: number; discoveryId: number }) {
  if (!items.length) return null;
  return (
    <section className="dependency-map__list">
      <h3>{title}</h3>
      <ul>
        {items.map(({ node, link }, index) => (
          <li key={`${node.id ?? node.name}-${index}`}>
            {node.id ? <AssetLink kind={kinds[node.entity]} id={node.id} discoveryId={discoveryId} name={node.name} /> : <>{node.name}<span className="inventory-muted">{' '}{t('inventories.notInventory')}</span></>}
            {link && <span className="inventory-muted">{' — '}{relationText(link)}{linkDetail(link) && ` (${linkDetail(link)})`}</span>}
          </li>
        ))}
      </ul>
      {more > 0 && <p className="inventory-muted">{t('inventories.dependencyMapMore', { count: more })}</p>}
    </section>
  );
}

/**
 * The device detail's dependency map (console spec: "dependency map"): the device in the middle, around it the
 * devices it is linked to (its switch or access point with port and VLAN, the host it runs on, the clients on it),
 * its users and its software, drawn in plain SVG from the relations and installations of the snapshot; the same
 * nodes follow as lists with links, for keyboards and screen readers.
 */
export function DependencyMap({ deviceId, discoveryId }: { deviceId: string; discoveryId: number }) {
  const map = useQuery(dependencyMapQuery(deviceId, discoveryId));
  if (map.isPending) return <Spinner label={t('inventories.dependencyMapLoading')} />;
  if (map.isError) return <ErrorState message={map.error.message} onRetry={() => void map.refetch()} />;
  const { device, links, software, more, index_id: indexId } = map.data;
  if (!links.length && !software.length) return <EmptyState title={t('inventories.dependencyMapEmpty')} description={t('inventories.dependencyMapEmptyHint')} />;
  const neighbours = links.filter((link) => link.node.entity === 'device').map((link) => ({ node: link.node, link }));
  const users = links.filter((link) => link.node.entity === 'user').map((link) => ({ node: link.node, link }));
  return (
    <div className="dependency-map__panel">
      <Graph name={device.name} nodes={placed(links, software)} />
      <div className="dependency-map__lists">
        <NodeList title={t('inventories.dependencyMapNeighbours')} items={neighbours} more={more.neighbours} discoveryId={indexId} />
        <NodeList title={t('inventories.dependencyMapUsers')} items={users} more={more.users} discoveryId={indexId} />
        <NodeList title={t('inventories.dependencyMapSoftware')} items={software.map((node) => ({ node, link: null }))} more={more.software} discoveryId={indexId} />
      </div>
    </div>
  );
}
