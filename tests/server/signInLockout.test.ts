import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockoutThreshold } from '../../src/server/identity/signInLockout.js';
import { createUserWithGroups, engines, startTestServer, userPassword, type Answer, type TestServer } from './harness.js';

const burstSize = 20;

describe.each(engines)('sign-in lockout under concurrent guesses on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(() => server.stop());

  const signIn = (username: string, password: string) => server.request('POST', '/api/token', { body: { username, password } });
  const codes = (answers: Answer[]) => answers.map((answer) => `${answer.status} ${answer.body.code}`).sort();
  const countedFailures = async (username: string) =>
    (await server.context.db.query<{ count: number }>('select count(*)::int as count from sign_in_failures where lower(username) = lower($1)', [username]))[0].count;

  /**
   * Twenty different wrong passwords at once, and the right password sent as soon as the first "locked" answer
   * arrives (while the rest of the burst may still be in flight): the limit is reached by then, so it must be refused.
   */
  async function burst(username: string): Promise<{ wrong: Answer[]; rightDuringBurst: Answer }> {
    let rightDuringBurst: Promise<Answer> | null = null;
    const wrong = await Promise.all(Array.from({ length: burstSize }, async (_, guess) => {
      const answer = await signIn(username, `wrong guess ${guess}`);
      if (answer.body.code === 'account_locked') rightDuringBurst ??= signIn(username, userPassword);
      return answer;
    }));
    expect(rightDuringBurst).not.toBeNull();
    return { wrong, rightDuringBurst: await rightDuringBurst! };
  }

  it('counts exactly the limit of a burst of wrong passwords and checks no password after it', async () => {
    await createUserWithGroups(server, server.adminToken, 'burst.target', ['Viewers']);
    const { wrong, rightDuringBurst } = await burst('burst.target');
    // The first four failures answer "invalid", the one that reaches the limit and every later one "locked".
    expect(codes(wrong)).toEqual([
      ...Array(lockoutThreshold - 1).fill('401 invalid_credentials'),
      ...Array(burstSize - lockoutThreshold + 1).fill('403 account_locked'),
    ].sort());
    expect(rightDuringBurst).toMatchObject({ status: 403, body: { code: 'account_locked' } });
    expect(await countedFailures('burst.target')).toBe(lockoutThreshold);
    expect(await signIn('burst.target', userPassword)).toMatchObject({ status: 403, body: { code: 'account_locked' } });
    expect(await countedFailures('burst.target')).toBe(lockoutThreshold);
    const events = await server.context.db.query("select 1 from system_log where event = 'account_locked' and message like '%burst.target%'");
    expect(events).toHaveLength(1);
  });

  it('answers a burst on an unknown username exactly as one on a known username', async () => {
    await createUserWithGroups(server, server.adminToken, 'burst.known', ['Viewers']);
    const known = await burst('burst.known');
    const unknown = await burst('burst.nobody');
    expect(codes(unknown.wrong)).toEqual(codes(known.wrong));
    expect(unknown.rightDuringBurst.body).toEqual(known.rightDuringBurst.body);
    expect(await countedFailures('burst.nobody')).toBe(lockoutThreshold);
  });

  it('lets a right password in while under the limit, and starts the count again after it', async () => {
    await createUserWithGroups(server, server.adminToken, 'burst.recovers', ['Viewers']);
    const answers = await Promise.all(Array.from({ length: lockoutThreshold - 1 }, (_, guess) => signIn('burst.recovers', `typo ${guess}`)));
    expect(answers.every((answer) => answer.body.code === 'invalid_credentials')).toBe(true);
    expect((await signIn('burst.recovers', userPassword)).status).toBe(200);
    expect(await countedFailures('burst.recovers')).toBe(0);
    expect((await signIn('burst.recovers', 'one more typo')).body.code).toBe('invalid_credentials');
  });
});
