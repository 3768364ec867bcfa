import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { useServiceBed } from '../../helpers/service-bed.js';
import { generatedRecords, importRecords } from './audience-fixture.js';

describe.each(TEST_DIALECTS)('audience import on %s', (dialect) => {
  const bed = useServiceBed(dialect);
  const { clock } = bed;

  async function profileOf(query: { email?: string; phone?: string; externalId?: string; loyaltyId?: string }) {
    const found = await bed.services.identity.findProfiles(bed.shopId, query);
    expect(found).toHaveLength(1);
    return found[0]!;
  }

  async function liveProfiles(): Promise<number> {
    const row = await bed.db.db
      .selectFrom('profiles')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('shop_id', '=', bed.shopId)
      .where('merged_into', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  it('stores every field of the record table, identifiers normalised', async () => {
    const result = await importRecords(bed.services, bed.shopId, [
      {
        email: ' Ann.Lee@Example.ORG ',
        phone: '+7 (912) 345-67-89',
        loyalty_id: 'L-100',
        external_id: 'crm-1',
        telegram_id: 'ann_tg',
        fb_id: 'fb-1',
        vk_id: 12345,
        loyalty_card_location: 'msk-1',
        loyalty_status: 'gold',
        loyalty_bonuses: 1500,
        loyalty_bonuses_to_next_level: '500',
        gender: 'F',
        location: 'msk',
        first_name: 'Ann',
        middle_name: 'M.',
        last_name: 'Lee',
        age: 34,
        birthday: '1991-07-20',
        bought_something: true,
        kids: [{ gender: 'm', birthday: '2015-03-01' }, { birthday: '2019-11-30' }],
        auto: [{ brand: 'Lada', model: 'Vesta', vds: 'XTA21' }],
        email_bulk: true,
        email_chain: 'false',
        email_transactional: 1,
        sms_bulk: false,
        sms_chain: '1',
        sms_transactional: 'TRUE',
        mobile_token: 'apns-token-1',
        mobile_token_platform: 'ios',
      },
    ]);
    expect(result).toMatchObject({ status: 'done', received: 1, processed: 1, imported: 1, skipped: 0, profilesCreated: 1 });
    expect(result.log.warnings).toEqual([]);

    const profile = await profileOf({ email: 'ann.lee@example.org' });
    expect(profile).toMatchObject({
      email: 'ann.lee@example.org',
      phone: '79123456789',
      loyaltyId: 'L-100',
      externalId: 'crm-1',
      telegramId: 'ann_tg',
    });
    expect(await bed.services.audience.getCustomerAttributes(bed.shopId, profile.id)).toEqual({
      fields: {
        first_name: 'Ann',
        middle_name: 'M.',
        last_name: 'Lee',
        gender: 'f',
        birthday: '1991-07-20',
        location: 'msk',
        loyalty_card_location: 'msk-1',
        loyalty_status: 'gold',
        fb_id: 'fb-1',
        vk_id: '12345',
        kids: [{ gender: 'm', birthday: '2015-03-01' }, { birthday: '2019-11-30' }],
        auto: [{ brand: 'Lada', model: 'Vesta', vds: 'XTA21' }],
        age: 34,
        loyalty_bonuses: 1500,
        loyalty_bonuses_to_next_level: 500,
        bought_something: true,
        email_bulk: true,
        email_chain: false,
        email_transactional: true,
        sms_bulk: false,
        sms_chain: true,
        sms_transactional: true,
      },
      pushTokens: [{ token: 'apns-token-1', platform: 'ios' }],
    });
  });

  it('skips records without a key identifier or with an invalid one, each counted with its reason', async () => {
    const result = await importRecords(bed.services, bed.shopId, [
      { email: 'kept@example.org' },
      { first_name: 'Nobody' },
      { telegram_id: 'only_tg' },
      'not a record',
      { phone: '8912abc4567', first_name: 'Letters' },
      { email: 'not-an-email', first_name: 'Bad' },
      { email: '', phone: '', external_id: '   ' },
      { external_id: 'x'.repeat(256) },
    ]);
    expect(result).toMatchObject({ status: 'done', received: 8, processed: 8, imported: 1, skipped: 7 });
    expect(result.log.skipped_reasons).toEqual({
      no_identifier: 3,
      not_an_object: 1,
      invalid_phone: 1,
      invalid_email: 1,
      invalid_external_id: 1,
    });
    expect(result.log.errors.map((e) => [e.index, e.reason])).toEqual([
      [1, 'no_identifier'],
      [2, 'no_identifier'],
      [3, 'not_an_object'],
      [4, 'invalid_phone'],
      [5, 'invalid_email'],
      [6, 'no_identifier'],
      [7, 'invalid_external_id'],
    ]);
    expect(result.log.errors[3]!.message).toMatch(/^phone is not valid: only digits/);
    expect(await liveProfiles()).toBe(1);
  });

  it('skips a record holding text no database can store, with its reason, and imports the rest', async () => {
    const records: unknown[] = generatedRecords(1000);
    records[500] = { email: 'nul@example.org', first_name: 'An\u0000n' };
    records[600] = { email: 'surrogate@example.org', kids: [{ gender: 'm', name: 'x\uD800' }] };
    records[700] = { email: 'key@example.org', ['ci\u0000ty']: 'Moscow' };
    const result = await importRecords(bed.services, bed.shopId, records);
    expect(result).toMatchObject({ status: 'done', received: 1000, processed: 1000, imported: 997, skipped: 3 });
    expect(result.log.skipped_reasons).toEqual({ invalid_text: 3 });
    expect(result.log.errors).toEqual([
      { index: 500, reason: 'invalid_text', message: 'first_name contains a NUL character (U+0000)' },
      { index: 600, reason: 'invalid_text', message: 'kids[0].name is not valid UTF-8 text' },
      { index: 700, reason: 'invalid_text', message: 'a field name contains a NUL character (U+0000)' },
    ]);
    expect(await bed.services.identity.findProfiles(bed.shopId, { email: 'nul@example.org' })).toEqual([]);
    expect(await liveProfiles()).toBe(997);
  });

  it('drops a bad field with its reason and stores the rest of the record', async () => {
    const result = await importRecords(bed.services, bed.shopId, [
      {
        email: 'kate@example.org',
        first_name: 'Kate',
        birthday: '2023-02-30',
        gender: 'x',
        age: -1,
        email_bulk: 'maybe',
        kids: [{ gender: 'f', birthday: '2018-05-05' }, 'a boy', { gender: 'q' }],
        auto: { brand: 'Lada' },
        mobile_token: 'fcm-1',
        mobile_token_platform: 'windows',
        loyalty_bonuses: 1.5,
      },
    ]);
    expect(result).toMatchObject({ status: 'done', imported: 1, skipped: 0 });
    expect(result.log.warnings).toEqual([
      { index: 0, field: 'birthday', message: '2023-02-30 is not a calendar date' },
      { index: 0, field: 'gender', message: 'must be m or f' },
      { index: 0, field: 'age', message: 'must be from 0 to 150' },
      { index: 0, field: 'email_bulk', message: 'must be true or false' },
      { index: 0, field: 'kids[1]', message: 'must be an object with gender and birthday' },
      { index: 0, field: 'kids[2]', message: 'gender must be m or f' },
      { index: 0, field: 'auto', message: 'must be an array' },
      { index: 0, field: 'loyalty_bonuses', message: 'must be an integer' },
      { index: 0, field: 'mobile_token', message: 'needs mobile_token_platform ios or android' },
    ]);
    expect(result.log.dropped_fields).toMatchObject({ birthday: 1, gender: 1, kids: 2, mobile_token: 1 });
    const profile = await profileOf({ email: 'kate@example.org' });
    expect(await bed.services.audience.getCustomerAttributes(bed.shopId, profile.id)).toEqual({
      fields: { first_name: 'Kate', kids: [{ gender: 'f', birthday: '2018-05-05' }] },
      pushTokens: [],
    });
  });

  it('refuses birthdays in the future or before 1900', async () => {
    const result = await importRecords(bed.services, bed.shopId, [
      { email: 'a@example.org', birthday: '2026-01-16' },
      { email: 'b@example.org', birthday: '1899-12-31' },
      { email: 'c@example.org', birthday: '2026-01-15' },
    ]);
    expect(result.log.warnings.map((w) => [w.index, w.field])).toEqual([
      [0, 'birthday'],
      [1, 'birthday'],
    ]);
    const c = await profileOf({ email: 'c@example.org' });
    expect((await bed.services.audience.getCustomerAttributes(bed.shopId, c.id))?.fields).toEqual({ birthday: '2026-01-15' });
  });

  it('keeps the first 100 skipped records in the log and counts them all', async () => {
    const records = [...Array.from({ length: 150 }, (_, i) => ({ first_name: `n${i}` })), { email: 'z@example.org' }];
    const result = await importRecords(bed.services, bed.shopId, records);
    expect(result).toMatchObject({ received: 151, imported: 1, skipped: 150 });
    expect(result.log.errors).toHaveLength(100);
    expect(result.log.errors[99]).toMatchObject({ index: 99, reason: 'no_identifier' });
    expect(result.log.skipped_reasons).toEqual({ no_identifier: 150 });
  });

  it('never makes a second profile for the same email: twice in one import, again later, or known from tracking', async () => {
    const first = await importRecords(bed.services, bed.shopId, [
      { email: 'Twice@Example.org', first_name: 'First', last_name: 'Lee' },
      { email: 'twice@example.org', first_name: 'Second' },
    ]);
    expect(first).toMatchObject({ imported: 2, profilesCreated: 1 });
    const profile = await profileOf({ email: 'twice@example.org' });
    expect((await bed.services.audience.getCustomerAttributes(bed.shopId, profile.id))?.fields).toEqual({
      first_name: 'Second',
      last_name: 'Lee',
    });

    const again = await importRecords(bed.services, bed.shopId, [{ email: 'twice@example.org', age: 40, phone: '89000000001' }]);
    expect(again).toMatchObject({ imported: 1, profilesCreated: 0 });
    expect(await profileOf({ email: 'twice@example.org' })).toMatchObject({ id: profile.id, phone: '79000000001' });
    expect((await bed.services.audience.getCustomerAttributes(bed.shopId, profile.id))?.fields).toEqual({
      first_name: 'Second',
      last_name: 'Lee',
      age: 40,
    });

    // A visitor tracking identified by email before the import.
    const device = await bed.services.identity.createDevice(bed.shopId);
    await bed.services.identity.resolveProfile(bed.shopId, { did: device.did, email: 'tracked@example.org' });
    const tracked = await importRecords(bed.services, bed.shopId, [{ email: 'TRACKED@example.org', first_name: 'Tom' }]);
    expect(tracked).toMatchObject({ imported: 1, profilesCreated: 0 });
    expect(await profileOf({ email: 'tracked@example.org' })).toMatchObject({ id: device.profileId, devices: [device.did] });
    expect(await liveProfiles()).toBe(2);
  });

  it('merges two stored profiles a record links, moving segments and attributes to the older one', async () => {
    const vip = await bed.services.segments.createSegment(bed.shopId, { name: 'VIP' });
    const newsletter = await bed.services.segments.createSegment(bed.shopId, { name: 'Newsletter' });
    await importRecords(bed.services, bed.shopId, [{ email: 'older@example.org', first_name: 'Old' }], vip.id);
    clock.advance(1000);
    await importRecords(
      bed.services,
      bed.shopId,
      [{ phone: '79001112233', first_name: 'Young', last_name: 'Smith', mobile_token: 'tok', mobile_token_platform: 'android' }],
      newsletter.id,
    );
    const older = await profileOf({ email: 'older@example.org' });
    const younger = await profileOf({ phone: '79001112233' });

    const linking = await importRecords(bed.services, bed.shopId, [{ email: 'older@example.org', phone: '+7 900 111-22-33' }]);
    expect(linking).toMatchObject({ imported: 1, profilesCreated: 0 });
    expect(await liveProfiles()).toBe(1);
    const merged = await profileOf({ phone: '79001112233' });
    expect(merged).toMatchObject({ id: older.id, email: 'older@example.org' });
    expect(await bed.services.identity.currentProfileId(bed.shopId, younger.id)).toBe(older.id);
    expect(await bed.services.audience.getCustomerAttributes(bed.shopId, older.id)).toEqual({
      fields: { first_name: 'Old', last_name: 'Smith' },
      pushTokens: [{ token: 'tok', platform: 'android' }],
    });
    expect((await bed.services.segments.segmentIdsOf(bed.shopId, [older.id])).get(older.id)).toEqual([vip.id, newsletter.id]);
    expect((await bed.services.segments.getSegment(bed.shopId, newsletter.id)).size).toBe(1);
    expect((await bed.services.identity.listMerges(bed.shopId, older.id))[0]).toMatchObject({
      fromProfileId: younger.id,
      intoProfileId: older.id,
      reason: 'shared_phone',
    });
  });

  it('reports an identifier another profile holds and imports the record to the profile of its key', async () => {
    await importRecords(bed.services, bed.shopId, [
      { email: 'ann@example.org', phone: '79000000001' },
      { email: 'bob@example.org', phone: '79000000002' },
    ]);
    const result = await importRecords(bed.services, bed.shopId, [{ email: 'ann@example.org', phone: '79000000002', first_name: 'Ann' }]);
    expect(result.log.warnings).toEqual([
      { index: 0, field: 'phone', message: 'is held by another profile, which holds different identifiers; it stays there' },
    ]);
    expect(await liveProfiles()).toBe(2);
    const ann = await profileOf({ email: 'ann@example.org' });
    expect(ann.phone).toBe('79000000001');
    expect((await bed.services.audience.getCustomerAttributes(bed.shopId, ann.id))?.fields).toEqual({ first_name: 'Ann' });
  });

  it('puts the records into the segment, and a profile lists its segments', async () => {
    const segment = await bed.services.segments.createSegment(bed.shopId, { name: 'Spring sale' });
    const result = await importRecords(bed.services, bed.shopId, [...generatedRecords(3), { first_name: 'no key' }], segment.id);
    expect(result).toMatchObject({ segmentId: segment.id, imported: 3, skipped: 1 });
    expect(await bed.services.segments.getSegment(bed.shopId, segment.id)).toMatchObject({ id: segment.id, name: 'Spring sale', size: 3 });
    await importRecords(bed.services, bed.shopId, generatedRecords(2), segment.id);
    expect((await bed.services.segments.getSegment(bed.shopId, segment.id)).size).toBe(3);
    const [view] = await bed.services.profileView.findProfiles(bed.shopId, { email: 'customer1@example.org' });
    expect(view?.segments).toEqual([segment.id]);
  });

  it('stores custom properties of the shop by their types and reports unknown codes', async () => {
    await bed.services.customProperties.createProperty(bed.shopId, { code: 'shoe_size', type: 'integer' });
    await bed.services.customProperties.createProperty(bed.shopId, { code: 'vip', type: 'boolean' });
    await bed.services.customProperties.createProperty(bed.shopId, { code: 'since', type: 'date' });
    await bed.services.customProperties.createProperty(bed.shopId, { code: 'score', type: 'float' });
    await bed.services.customProperties.createProperty(bed.shopId, { code: 'seen_at', type: 'datetime' });
    await bed.services.customProperties.createProperty(bed.shopId, { code: 'nickname', type: 'string' });
    const result = await importRecords(bed.services, bed.shopId, [
      {
        email: 'p1@example.org',
        shoe_size: '42',
        vip: true,
        since: '2020-02-29',
        score: 4.5,
        seen_at: '2024-05-01T10:00:00+03:00',
        nickname: 'Pat',
        colour: 'red',
      },
      { email: 'p2@example.org', shoe_size: 'big', since: '2021-02-29', score: 'x', colour: 'blue', hobby: 'chess' },
    ]);
    expect(result).toMatchObject({ imported: 2, skipped: 0 });
    expect(result.log.unknown_properties).toEqual({ colour: 2, hobby: 1 });
    expect(result.log.warnings.map((w) => [w.index, w.field])).toEqual([
      [1, 'shoe_size'],
      [1, 'since'],
      [1, 'score'],
    ]);
    expect((await profileOf({ email: 'p1@example.org' })).properties).toEqual({
      shoe_size: 42,
      vip: true,
      since: '2020-02-29',
      score: 4.5,
      seen_at: '2024-05-01T07:00:00.000Z',
      nickname: 'Pat',
    });
    expect((await profileOf({ email: 'p2@example.org' })).properties).toEqual({});
  });

  it('answers the log newest first, with its status changes', async () => {
    const a = await importRecords(bed.services, bed.shopId, generatedRecords(2));
    clock.advance(1000);
    const b = await importRecords(bed.services, bed.shopId, generatedRecords(1, 10));
    const list = await bed.services.audience.listImports(bed.shopId);
    expect(list.map((i) => i.id)).toEqual([b.id, a.id]);
    expect(b.log.history.map((h) => h.status)).toEqual(['queued', 'running', 'done']);
    expect(b).toMatchObject({ kind: 'audience', source: 'api', startedAt: clock.now(), finishedAt: clock.now() });
    expect(await bed.services.audience.listImports((await createShopFixture(bed.services)).shopId)).toEqual([]);
  });
});
