/** One source of a snapshot as lists, details and charts name it: a connection, its name and its adapter's slug. */
export type SnapshotConnection = { id: number; name: string; adapter: string };

/** The name of connection `id`, or a stand-in naming its id when the snapshot does not know it. */
export function connectionNameOf(connections: readonly SnapshotConnection[], id: number): string {
  return connections.find((connection) => connection.id === id)?.name ?? `Connection #${id}`;
}
