import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { expectOk, messagingStack, type MessagingStack } from './messaging-setup.js';

/**
 * Templates cannot read files of the server (issue 33, part 2): `include`, `render` and
 * `layout` are refused when a template is saved, and a template stored before that rule
 * (or written by other means) renders to a clean error: a 422 in the preview, a failed
 * delivery with its reason, and never a byte of the file.
 */

const cwd = process.cwd();
/** Words of the files the probes name: package.json of the working directory, and /etc/passwd. */
const FILE_WORDS = ['"devDependencies"', '"name": "patron"', 'root:x:0'];

/** [what, template]: each tag that reads a file, by relative, climbing, absolute and variable paths. */
const PROBES: ReadonlyArray<readonly [string, string]> = [
  ['include of a relative path', '{% include "package.json" %}'],
  ['render of a relative path', '{% render "package.json" %}'],
  ['layout of a relative path', '{% layout "package.json" %}body'],
  ['include through ../', '{% include "src/../package.json" %}'],
  ['include out of the directory and back', `{% include "../${path.basename(cwd)}/package.json" %}`],
  ['include of an absolute path in the directory', `{% include "${path.join(cwd, 'package.json')}" %}`],
  ['include of /etc/passwd', '{% include "/etc/passwd" %}'],
  ['include of a variable', '{% include variables.file %}'],
  ['render of a variable', '{% render file %}'],
  ['layout of a variable', '{% layout file %}body'],
  ['include inside a liquid tag', '{% liquid\ninclude "package.json"\n%}'],
];

const VARIABLES = { file: 'package.json' };

function expectNoFile(text: string): void {
  for (const word of FILE_WORDS) expect(text).not.toContain(word);
}

describe.each(TEST_DIALECTS)('templates reading files on %s', (dialect) => {
  let s: MessagingStack;

  beforeAll(async () => {
    s = await messagingStack(dialect);
    await expectOk(s.admin('PUT', '/channels/email', { smtp_url: 'smtp://mailer:secret@127.0.0.1:2525', from: 'Shop <shop@example.org>' }));
    await expectOk(s.admin('PUT', '/channels/sms', { provider: 'test_sms', api_key: 'sms-key-0123456789abcdef', sender: 'SHOP' }));
  });

  afterAll(async () => {
    await s.t.close();
  });

  /** Stores templates as an older version (or a direct write) would have, past the check on save. */
  async function storeUnchecked(code: string, templates: object): Promise<void> {
    await expectOk(s.admin('PUT', `/mailings/transactional/${code}`, { sms: { body: 'placeholder' } }));
    await s.t.db.db
      .updateTable('messaging_mailings')
      .set({ templates: JSON.stringify(templates) })
      .where('shop_id', '=', s.shopId)
      .where('code', '=', code)
      .execute();
  }

  it.each(PROBES)('refuses an email template with an %s when it is saved, naming the tag', async (_what, template) => {
    const r = await s.admin('PUT', '/mailings/transactional/reads_file', { email: { subject: 's', html: `<p>${template}</p>` } });
    expect(r.statusCode, r.body).toBe(422);
    expect(r.json().error.message).toMatch(/^Template email\.html does not parse: .*(include|render|layout).* cannot read files/);
    expectNoFile(r.body);
  });

  it.each(PROBES)('refuses an SMS template with an %s when it is saved', async (_what, template) => {
    const r = await s.admin('PUT', '/mailings/transactional/reads_file', { sms: { body: template } });
    expect(r.statusCode, r.body).toBe(422);
    expect(r.json().error.message).toMatch(/^Template sms\.body does not parse: /);
    expectNoFile(r.body);
  });

  it.each(PROBES)('previews a stored template with an %s as a 422, without the file', async (what, template) => {
    const code = `stored_${PROBES.findIndex(([w]) => w === what)}`;
    await storeUnchecked(code, { email: { subject: 's', html: `<p>${template}</p>` }, sms: { body: template } });
    const r = await s.admin('POST', `/mailings/transactional/${code}/preview`, { variables: VARIABLES });
    expect(r.statusCode, r.body).toBe(422);
    expect(r.json().error.message).toMatch(/^The mailing does not render: .*cannot read files/);
    expectNoFile(r.body);
  });

  it.each(PROBES)('fails the deliveries of a stored template with an %s, saying why and sending nothing', async (what, template) => {
    const code = `sent_${PROBES.findIndex(([w]) => w === what)}`;
    await storeUnchecked(code, { email: { subject: 's', html: `<p>${template}</p>` }, sms: { body: template } });
    const emails = s.email.sent.length;
    const texts = s.sms.sent.length;
    const { payload } = await expectOk(s.transact({ code, email: 'reader@example.org', phone: '+7 900 333-22-11', variables: VARIABLES }));
    await s.runner.runDue();
    const rows = await s.t.db.db
      .selectFrom('messaging_deliveries')
      .select(['channel', 'status', 'error'])
      .where('code', '=', payload.code)
      .orderBy('seq')
      .execute();
    expect(rows.map((row) => [row.channel, row.status])).toEqual([
      ['email', 'failed'],
      ['sms', 'failed'],
    ]);
    for (const row of rows) {
      expect(row.error).toMatch(/^The template does not render: .*cannot read files/);
      expectNoFile(row.error ?? '');
    }
    const sent = [...s.email.sent.slice(emails), ...s.sms.sent.slice(texts)];
    expect(sent).toEqual([]);
    expectNoFile(JSON.stringify(sent));
  });
});
