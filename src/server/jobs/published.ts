import type PgBoss from 'pg-boss';
import type { CoreContext } from '../context.js';
import type { Queryable } from '../db/database.js';
import { jobSender } from './queue.js';

/** A snapshot that was just published: what its subscribers are told. */
export type SnapshotPublished = { companyId: number; discoveryId: number };

/**
 * Work that follows every publish (dashboards computed ahead; later: scores, matching, actions, reports). Each
 * subscriber has a queue of its own, so it runs once per snapshot in whichever process is free, and the discovery
 * knows none of them.
 */
export type PublishedSubscriber = { name: string; handle: (context: CoreContext, event: SnapshotPublished) => Promise<void> };

export const publishedQueueOf = (subscriber: PublishedSubscriber) => `published-${subscriber.name}`;

/** Tells every subscriber of a publish, in the publish's own transaction: they hear of it exactly when it commits. */
export async function announcePublished(transaction: Queryable, queue: PgBoss, subscribers: PublishedSubscriber[], event: SnapshotPublished): Promise<void> {
  for (const subscriber of subscribers) {
    await queue.send(publishedQueueOf(subscriber), event, { retryLimit: 2, retryDelay: 5, db: jobSender(transaction) } as PgBoss.SendOptions);
  }
}
