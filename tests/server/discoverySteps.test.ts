import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimStep, planSteps, takeStaleSteps } from '../../src/server/discovery/steps.js';
import { engines, startTestServer, type TestServer } from './harness.js';

// Which running steps count as abandoned: those whose attempt stopped saying it is alive, never one that said
// beforehand it would be busy computing (correlation cannot send heartbeats while it runs).
describe.each(engines)('steps of a discovery on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(() => server?.stop());

  it('takes over a step whose heartbeat stopped, but not one held for a long computation', async () => {
    const { db } = server.context;
    const [{ id }] = await db.query<{ id: number }>("insert into discoveries (company_id, status) values (1, 'running') returning id");
    await planSteps(db, id, [901, 902]);
    await db.query("update discovery_steps set state = 'queued' where discovery_id = $1", [id]);
    const silent = await claimStep(db, { discoveryId: id, step: 'fetch:901' });
    const busy = await claimStep(db, { discoveryId: id, step: 'fetch:902' });
    expect(busy).toMatchObject({ attempt: 1 });
    await busy!.holdFor(600);
    // Both last said they were alive a minute ago; only the busy one said it would be busy for ten.
    await db.query("update discovery_steps set heartbeat_at = heartbeat_at - interval '1 minute' where discovery_id = $1", [id]);
    const stale = await db.transaction((transaction) => takeStaleSteps(transaction));
    expect(stale.map((step) => step.step)).toEqual(['fetch:901']);
    silent!.release();
    busy!.release();
    await db.query("update discoveries set status = 'error' where id = $1", [id]);
  });
});
