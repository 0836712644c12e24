import type { AssetRow } from './inventoryApi';

/** What a list's actions are given: the rows chosen, the list's query and count, and its index. */
export type ListActionsProps = { chosen: AssetRow[]; onChosenChange: (chosen: AssetRow[]) => void; query: string; count: number | undefined; indexId: number | null };
