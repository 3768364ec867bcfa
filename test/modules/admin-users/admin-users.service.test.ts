import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { INVITATION_TTL_MS } from '../../../src/modules/admin-users/index.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { useServiceBed } from '../../helpers/service-bed.js';

async function errorOf(promise: Promise<unknown>): Promise<AppError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const client = { ip: '192.0.2.1', userAgent: 'test' };
let counter = 0;
const uniqueEmail = (name: string) => `${name}.${(counter += 1)}@example.org`;

describe.each(TEST_DIALECTS)('admin users services on %s', (dialect) => {
  const bed = useServiceBed(dialect);
  const accounts = () => bed.services.adminAccounts;
  const sessions = () => bed.services.adminSessions;

  it('keeps emails unique whatever their case', async () => {
    const email = uniqueEmail('Case');
    await accounts().createUser({ email, password: 'correct horse battery', role: 'admin' });
    const error = await errorOf(accounts().createUser({ email: email.toUpperCase(), role: 'analyst' }));
    expect(error.code).toBe('CONFLICT');
    expect(await accounts().findUserByEmail(email.toLowerCase())).toMatchObject({ email, role: 'admin', status: 'active' });
  });

  it('signs in with the right password only, and stores no password in clear', async () => {
    const email = uniqueEmail('sign');
    const { user } = await accounts().createUser({ email, password: 'correct horse battery', role: 'marketer' });
    expect(await sessions().checkPassword(email, 'correct horse battery')).toMatchObject({ id: user.id });
    expect(await sessions().checkPassword(email, 'wrong horse battery')).toBeUndefined();
    expect(await sessions().checkPassword(uniqueEmail('nobody'), 'correct horse battery')).toBeUndefined();
    const row = await bed.db.db.selectFrom('admin_users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(row.password_hash).not.toContain('correct');
  });

  it('ends a session when idle, at its absolute expiry, and on sign-out; stores only the hash of its id', async () => {
    const { user } = await accounts().createUser({ email: uniqueEmail('sess'), password: 'correct horse battery', role: 'analyst' });
    const started = await sessions().startSession(user, client);
    const rows = await bed.db.db.selectFrom('admin_sessions').select('id_hash').where('user_id', '=', user.id).execute();
    expect(rows.map((r) => r.id_hash)).not.toContain(started.sessionId);
    expect(await sessions().findLiveSession(started.sessionId)).toMatchObject({ csrfToken: started.csrfToken });
    bed.clock.advance(12 * 60 * 60 * 1000);
    expect(await sessions().findLiveSession(started.sessionId)).toBeUndefined();

    const second = await sessions().startSession(user, client);
    // Used every 11 hours: never idle for 12, yet over at 7 days (168 h) all the same.
    for (let step = 1; step <= 15; step += 1) {
      bed.clock.advance(11 * 60 * 60 * 1000);
      expect(await sessions().findLiveSession(second.sessionId), `hour ${step * 11}`).toBeDefined();
    }
    bed.clock.advance(11 * 60 * 60 * 1000);
    expect(await sessions().findLiveSession(second.sessionId)).toBeUndefined();

    const third = await sessions().startSession(user, client);
    const live = await sessions().findLiveSession(third.sessionId);
    await sessions().signOut(live!.idHash);
    expect(await sessions().findLiveSession(third.sessionId)).toBeUndefined();
  });

  it('never leaves the installation without an enabled owner, even under two concurrent demotions', async () => {
    const before = (await accounts().listUsers()).filter((u) => u.role === 'owner' && !u.disabled);
    for (const owner of before)
      await accounts()
        .updateUser(owner.id, { role: 'admin' })
        .catch(() => undefined);
    const a = (await accounts().createUser({ email: uniqueEmail('owner-a'), password: 'correct horse battery', role: 'owner' })).user;
    const b = (await accounts().createUser({ email: uniqueEmail('owner-b'), password: 'correct horse battery', role: 'owner' })).user;
    for (const owner of before) await accounts().updateUser(owner.id, { role: 'admin' });
    const results = await Promise.allSettled([
      accounts().updateUser(a.id, { role: 'admin' }),
      accounts().updateUser(b.id, { role: 'admin' }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const owners = (await accounts().listUsers()).filter((u) => u.role === 'owner' && !u.disabled);
    expect(owners).toHaveLength(1);
    expect((await errorOf(accounts().deleteUser(owners[0]!.id))).code).toBe('CONFLICT');
    expect((await errorOf(accounts().updateUser(owners[0]!.id, { disabled: true }))).code).toBe('CONFLICT');
  });

  it('lets an invitation be used once, within its seven days', async () => {
    const email = uniqueEmail('invited');
    const { user, inviteToken } = await accounts().createUser({ email, role: 'analyst', shops: [bed.shopId] });
    expect(user).toMatchObject({ status: 'invited', shops: [bed.shopId] });
    expect(await sessions().readInvitation(inviteToken!)).toEqual({ email, role: 'analyst' });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => sessions().acceptInvitation(inviteToken!, { password: 'correct horse battery' }, client)),
    );
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    expect(await sessions().readInvitation(inviteToken!)).toBeUndefined();
    expect(await sessions().checkPassword(email, 'correct horse battery')).toMatchObject({ status: 'active' });

    const late = await accounts().issueInvitation(user.id);
    bed.clock.advance(INVITATION_TTL_MS);
    expect(await sessions().acceptInvitation(late, { password: 'another horse battery' }, client)).toBeUndefined();
  });

  it('disabling a user revokes their sessions and API tokens', async () => {
    const { user } = await accounts().createUser({ email: uniqueEmail('dis'), password: 'correct horse battery', role: 'admin' });
    const started = await sessions().startSession(user, client);
    const { token } = await accounts().createApiToken(user.id, 'script');
    expect(await sessions().findApiTokenUser(token)).toMatchObject({ id: user.id });
    await accounts().updateUser(user.id, { disabled: true });
    expect(await sessions().findLiveSession(started.sessionId)).toBeUndefined();
    expect(await sessions().findApiTokenUser(token)).toBeUndefined();
    expect(await accounts().listApiTokens(user.id)).toEqual([]);
  });
});
