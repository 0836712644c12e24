import type { Snapshot } from '../inventory/snapshots.js';
import type { Database } from '../db/database.js';

/** What a report's sections read: the company's data in one snapshot (the latest or the one the report or run chose). */
/** `userId`: whose saved queries `Query is <id>` expands (the caller previewing, or the report's owner for a run). */
export type ReportScope = { db: Database; companyId: number; userId: number | null; snapshot: Snapshot; now: Date };
