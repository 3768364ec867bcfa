import { SubscriptionFlagsService } from '../../../src/modules/audience/subscription-flags.service.js';
import { expectOk, type MessagingStack } from '../messaging/messaging-setup.js';

/** Profiles in segments for bulk mailing tests, made through the services and the segment table. */
export class Members {
  private phone = 0;

  constructor(private readonly s: MessagingStack) {}

  async segment(name: string): Promise<number> {
    return ((await expectOk(this.s.admin('POST', '/segments', { name }), 201)) as { id: number }).id;
  }

  /** A profile with an email (or only a phone), in the given segments; `bulkOff` turns its email_bulk flag off. */
  async add(email: string | null, segmentIds: readonly number[], options: { bulkOff?: boolean } = {}): Promise<number> {
    const { app, db, clock } = this.s.t;
    this.phone += 1;
    const input = email ? { email } : { phone: `7900${String(this.phone).padStart(7, '0')}` };
    const { profileId } = await app.services.identity.resolveProfile(this.s.shopId, input);
    for (const segmentId of segmentIds) {
      await db.db
        .insertInto('segment_members')
        .values({ shop_id: this.s.shopId, segment_id: segmentId, profile_id: profileId, created_at: clock.now() })
        .execute();
    }
    if (options.bulkOff) {
      await new SubscriptionFlagsService({ db, clock, identity: app.services.identity }).turnOff(this.s.shopId, profileId, ['email_bulk']);
    }
    return profileId;
  }
}
