import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../helpers/db.js';
import { expectOk, messagingStack, type MessagingStack } from '../modules/messaging/messaging-setup.js';

/**
 * The transactional mailings' list and delete (issue 36, the admin UI's mailings screen) on
 * both databases: keyset pages by code (`limit`, `after`, `next_after`), every mailing on
 * exactly one page; a delete that /transact and the list see at once; 404s for an unknown
 * code; and the query's bounds refused with 422.
 */

describe.each(TEST_DIALECTS)('transactional mailings list and delete on %s', (dialect) => {
  let s: MessagingStack;
  const codes = ['a-welcome', 'b-order', 'c-shipped', 'd-reset', 'e-bye'];

  beforeAll(async () => {
    s = await messagingStack(dialect);
    await expectOk(s.admin('PUT', '/channels/email', { smtp_url: 'smtp://127.0.0.1:2525', from: 'Shop <shop@example.org>' }));
    // Saved out of order: the list sorts by code.
    for (const code of [...codes].reverse()) {
      await expectOk(s.admin('PUT', `/mailings/transactional/${code}`, { name: code, email: { subject: 'Hi', html: '<p>Hi</p>' } }));
    }
  });

  afterAll(async () => {
    await s.t.close();
  });

  const remove = (code: string) =>
    s.t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/shops/${s.shopId}/mailings/transactional/${encodeURIComponent(code)}`,
      headers: s.t.adminHeaders,
    });

  it('pages by code, each mailing on exactly one page, the last page with next_after null', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const query: string = after === null ? '?limit=2' : `?limit=2&after=${encodeURIComponent(after)}`;
      const page = await expectOk(s.admin('GET', `/mailings/transactional${query}`));
      seen.push(...(page.mailings as Array<{ code: string }>).map((m) => m.code));
      after = page.next_after as string | null;
      pages += 1;
    } while (after !== null && pages < 10);
    expect(seen).toEqual(codes);
    expect(pages).toBe(3);
    // Without a limit: 50 by default, every field of the mailing as the GET of one answers it.
    const all = await expectOk(s.admin('GET', '/mailings/transactional'));
    expect(all.next_after).toBeNull();
    expect(all.mailings[0]).toMatchObject({ code: 'a-welcome', name: 'a-welcome', email: { subject: 'Hi', html: '<p>Hi</p>' } });
    // A page that ends exactly at the last mailing says so.
    const exact = await expectOk(s.admin('GET', '/mailings/transactional?limit=5'));
    expect(exact.mailings).toHaveLength(5);
    expect(exact.next_after).toBeNull();
    const afterLast = await expectOk(s.admin('GET', '/mailings/transactional?after=e-bye'));
    expect(afterLast).toEqual({ mailings: [], next_after: null });
  });

  it('refuses a limit out of its bounds and an empty after, naming the parameter', async () => {
    for (const query of ['?limit=0', '?limit=201', '?limit=x', '?after=']) {
      const r = await s.admin('GET', `/mailings/transactional${query}`);
      expect(r.statusCode, query).toBe(422);
      expect(r.json().error.message, query).toMatch(/`(limit|after)`/);
    }
  });

  it('deletes a mailing: gone from the list and the GET, /transact refuses its code, a second delete is 404', async () => {
    const r = await remove('c-shipped');
    expect(r.statusCode).toBe(204);
    expect(r.body).toBe('');
    expect((await s.admin('GET', '/mailings/transactional/c-shipped')).statusCode).toBe(404);
    const list = await expectOk(s.admin('GET', '/mailings/transactional'));
    expect((list.mailings as Array<{ code: string }>).map((m) => m.code)).toEqual(['a-welcome', 'b-order', 'd-reset', 'e-bye']);
    const sent = await s.transact({ code: 'c-shipped', email: 'ann@example.org' });
    expect(sent.statusCode).toBe(404);
    expect((await remove('c-shipped')).statusCode).toBe(404);
    expect((await remove('never-was')).statusCode).toBe(404);
    // The code is free again: a PUT creates it anew.
    await expectOk(s.admin('PUT', '/mailings/transactional/c-shipped', { email: { subject: 'Again', html: '<p>x</p>' } }));
    expect((await expectOk(s.admin('GET', '/mailings/transactional/c-shipped'))).email.subject).toBe('Again');
  });

  it("answers 404 for another shop's id", async () => {
    const other = 'f'.repeat(30);
    const r = await s.t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/shops/${other}/mailings/transactional/a-welcome`,
      headers: s.t.adminHeaders,
    });
    expect(r.statusCode).toBe(404);
    expect(
      (await s.t.app.inject({ method: 'GET', url: `/admin/v1/shops/${other}/mailings/transactional`, headers: s.t.adminHeaders }))
        .statusCode,
    ).toBe(404);
  });
});
