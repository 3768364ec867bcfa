import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createServices, type Services } from '../../src/services.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { databaseEnv, runCli, type Env } from './cli-harness.js';

/** `patron import audience FILE --shop ID [--segment N]` through the real command, on both databases. */
describe.each(TEST_DIALECTS)('patron import audience on %s', (dialect) => {
  let db: TestDb;
  let env: Env;
  let services: Services;
  let dir: string;

  beforeAll(async () => {
    db = await createTestDb(dialect);
    env = databaseEnv(db.options);
    services = createServices({ config: loadConfig({ LOG_LEVEL: 'silent' }), db, clock: new ManualClock() });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patron-audience-'));
  });
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await db.cleanup();
  });

  function file(name: string, text: string): string {
    const at = path.join(dir, name);
    fs.writeFileSync(at, text);
    return at;
  }

  it('imports a CSV file into a segment, with a progress bar on stderr and a summary on stdout', async () => {
    const { shopId } = await createShopFixture(services);
    const segment = await services.segments.createSegment(shopId, { name: 'From the shop floor' });
    const csv = file(
      'customers.csv',
      '\uFEFFemail,phone,first_name,last_name,gender,birthday,email_bulk,kids,mobile_token,mobile_token_platform\r\n' +
        'ann@example.org,+7 912 000-00-01,Ann,"Lee, Jr.",f,1990-05-01,true,"[{""gender"":""m"",""birthday"":""2016-01-02""}]",tok-1,ios\r\n' +
        ',89120000002,Bob,,m,,0,,,\r\n' +
        ',,Nobody,,,,,,,\r\n' +
        '"ANN@example.org",,"Ann ""the first""",,,,,,,\r\n',
    );
    const result = await runCli(['import', 'audience', csv, '--shop', shopId, '--segment', String(segment.id)], env, 60_000);
    expect(result.stderr).toMatch(/^Reading +\[#+\] 100% /m);
    expect(result.stderr).toMatch(/^Importing +\[#+\] 100% 4 of 4 records/m);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Imported ${csv} into shop ${shopId} (import 1, segment ${segment.id}):`);
    expect(result.stdout).toMatch(/received +4\n +imported +3\n +skipped +1\n +new profiles +2\n/);
    expect(result.stdout).toContain('record 3: no_identifier: none of email, phone, loyalty_id, external_id is given');

    const [ann] = await services.identity.findProfiles(shopId, { email: 'ann@example.org' });
    expect(ann).toMatchObject({ phone: '79120000001' });
    expect(await services.audience.getCustomerAttributes(shopId, ann!.id)).toEqual({
      fields: {
        first_name: 'Ann "the first"',
        last_name: 'Lee, Jr.',
        gender: 'f',
        birthday: '1990-05-01',
        email_bulk: true,
        kids: [{ gender: 'm', birthday: '2016-01-02' }],
      },
      pushTokens: [{ token: 'tok-1', platform: 'ios' }],
    });
    expect((await services.segments.getSegment(shopId, segment.id)).size).toBe(2);
    const [entry] = await services.audience.listImports(shopId);
    expect(entry).toMatchObject({ source: 'cli', status: 'done', received: 4, imported: 3, skipped: 1 });
  }, 60_000);

  it('reads semicolon-separated CSV and JSON Lines, reporting bad records and unknown properties', async () => {
    const { shopId } = await createShopFixture(services);
    const semicolons = file('excel.csv', 'email;first_name;age\nkim@example.org;Kim;41\n');
    const first = await runCli(['import', 'audience', semicolons, '--shop', shopId], env, 60_000);
    expect(first.code).toBe(0);
    const jsonl = file(
      'customers.jsonl',
      '{"email":"kim@example.org","age":"x","favourite_colour":"red"}\n\n"just a string"\n{"phone":"letters"}\n',
    );
    const second = await runCli(['import', 'audience', jsonl, '--shop', shopId], env, 60_000);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/received +3\n +imported +1\n +skipped +2\n/);
    expect(second.stdout).toContain('record 2: not_an_object');
    expect(second.stdout).toContain('Unknown properties, not stored: favourite_colour');
    expect(second.stdout).toContain('Fields dropped: age 1');
    const [kim] = await services.identity.findProfiles(shopId, { email: 'kim@example.org' });
    expect((await services.audience.getCustomerAttributes(shopId, kim!.id))?.fields).toEqual({ first_name: 'Kim', age: 41 });
  }, 60_000);

  it('refuses a file that is not JSON Lines as a whole, storing nothing', async () => {
    const { shopId } = await createShopFixture(services);
    const broken = file('broken.jsonl', '{"email":"a@example.org"}\n{"email": oops}\n');
    const result = await runCli(['import', 'audience', broken, '--shop', shopId], env, 60_000);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Line 2 is not valid JSON.');
    expect(result.stdout).toBe('');
    expect(await services.audience.listImports(shopId)).toEqual([]);
    expect(await services.identity.findProfiles(shopId, { email: 'a@example.org' })).toEqual([]);
  }, 60_000);

  it('answers an unknown shop or segment with exit 1, and bad usage with exit 2', async () => {
    const { shopId } = await createShopFixture(services);
    const csv = file('one.csv', 'email\nx@example.org\n');
    const noShop = await runCli(['import', 'audience', csv, '--shop', 'ab'.repeat(15)], env, 60_000);
    expect(noShop.code).toBe(1);
    expect(noShop.stderr).toContain('Shop not found');
    const noSegment = await runCli(['import', 'audience', csv, '--shop', shopId, '--segment', '77'], env, 60_000);
    expect(noSegment.code).toBe(1);
    expect(noSegment.stderr).toContain('Segment 77 does not exist.');
    const usage = await runCli(['import', 'audience', csv], env, 60_000);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('patron import audience needs --shop <shop_id>.');
    const missing = await runCli(['import', 'audience', path.join(dir, 'nope.csv'), '--shop', shopId], env, 60_000);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('ENOENT');
  }, 60_000);
});
