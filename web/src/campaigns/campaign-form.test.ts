import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import {
  buildBody,
  channelsOf,
  evenShares,
  limitsBody,
  limitsDraft,
  limitsRefusalChannel,
  newDraft,
  refusalField,
  reshare,
  sharesTotal,
  type CampaignDraft,
} from './campaign-form';

const refusal = (message: string, field?: string) => new ApiError(422, 'VALIDATION_FAILED', message, field);

const draft = (over: Partial<CampaignDraft> = {}): CampaignDraft => ({
  ...newDraft(),
  name: 'Spring sale',
  segmentIds: [3],
  templates: { email: { subject: 'Hello {{ profile.first_name }}', html: '<p>Sale</p>' } },
  ...over,
});

describe('evenShares and reshare', () => {
  it('split 100 into whole shares whose first ones take the remainder', () => {
    expect(evenShares(2)).toEqual([50, 50]);
    expect(evenShares(3)).toEqual([34, 33, 33]);
    expect(evenShares(4)).toEqual([25, 25, 25, 25]);
  });

  it('keeps what each variant says when the shares are dealt again', () => {
    const three = reshare([...draft().variants, { share: '0', subject: 'C', html: '', sms: '' }]);
    expect(three.map((v) => v.share)).toEqual(['34', '33', '33']);
    expect(three[2]?.subject).toBe('C');
    expect(sharesTotal(three)).toBe(100);
  });
});

describe('buildBody', () => {
  it('sends now with the templates at the top level and nothing optional', () => {
    const result = buildBody(draft(), 'Europe/Moscow');
    expect(result).toEqual({
      body: { name: 'Spring sale', segment_ids: [3], email: { subject: 'Hello {{ profile.first_name }}', html: '<p>Sale</p>' } },
    });
  });

  it("reads a scheduled time in the shop's zone", () => {
    const result = buildBody(draft({ when: 'later', sendAt: '2026-12-24T10:00' }), 'Europe/Moscow');
    expect(result).toMatchObject({ body: { send_at: '2026-12-24T07:00:00.000Z' } });
  });

  it('refuses a schedule without a time, and a throttle that is not a whole number, at their fields', () => {
    expect(buildBody(draft({ when: 'later', sendAt: '' }), 'UTC')).toEqual({ problem: { field: 'send_at', key: 'sendAtMissing' } });
    expect(buildBody(draft({ throttle: '1.5' }), 'UTC')).toEqual({ problem: { field: 'throttle_per_minute', key: 'throttleNumber' } });
    expect(buildBody(draft({ throttle: '600' }), 'UTC')).toMatchObject({ body: { throttle_per_minute: 600 } });
  });

  it("lays each variant's changes over the mailing's channels only, and leaves the shares' sum to the server", () => {
    const variants = [
      { share: '70', subject: 'A subject', html: '', sms: 'not an sms mailing' },
      { share: '40', subject: '', html: '<p>B</p>', sms: '' },
    ];
    const result = buildBody(draft({ ab: true, testShare: '20', metric: 'clicks', afterHours: '6', variants }), 'UTC');
    expect(result).toMatchObject({
      body: {
        ab: {
          test_share: 20,
          metric: 'clicks',
          after_hours: 6,
          variants: [
            { share: 70, email: { subject: 'A subject' } },
            { share: 40, email: { html: '<p>B</p>' } },
          ],
        },
      },
    });
    if ('body' in result) expect(result.body.ab?.variants[0]).not.toHaveProperty('sms');
  });

  it('refuses an A/B split whose numbers are not whole numbers', () => {
    expect(buildBody(draft({ ab: true, testShare: 'twenty' }), 'UTC')).toEqual({ problem: { field: 'ab', key: 'abNumbers' } });
  });
});

describe('refusalField', () => {
  it('places the audience refusals at the segments', () => {
    expect(refusalField(refusal('Segment 7 has no members.'))).toBe('segment_ids');
    expect(refusalField(refusal('Segments 1, 2 have no members.'))).toBe('segment_ids');
    expect(refusalField(refusal('Segment 7 does not exist.'))).toBe('segment_ids');
    expect(
      refusalField(refusal('None of the 2 members of the segments can be reached (email: 2 without an address; sms is not configured).')),
    ).toBe('segment_ids');
  });

  it('places template and split refusals, and fields the server names, at their part of the form', () => {
    expect(refusalField(refusal('Template email.html does not parse: bad tag'))).toBe('templates');
    expect(refusalField(refusal('A bulk mailing needs the template of at least one channel.'))).toBe('templates');
    expect(refusalField(refusal('Field `email.subject` is required.', 'email.subject'))).toBe('templates');
    expect(refusalField(refusal('The shares of `ab.variants` add up to 110; they must add up to 100.'))).toBe('ab');
    expect(refusalField(refusal('Field `ab.after_hours` must be <= 720.', 'ab.after_hours'))).toBe('ab');
    expect(refusalField(refusal('Field `name` must NOT have fewer than 1 characters.', 'name'))).toBe('name');
  });

  it('leaves other failures to the form', () => {
    expect(refusalField(new ApiError(403, 'FORBIDDEN', 'No.', undefined))).toBeUndefined();
    expect(refusalField(refusal('Something else.'))).toBeUndefined();
    expect(refusalField(new TypeError('network'))).toBeUndefined();
  });
});

describe('channelsOf', () => {
  it("lists the templates' channels in the API's order", () => {
    expect(channelsOf({ sms: { body: 'x' }, email: { subject: 's', html: 'h' } })).toEqual(['email', 'sms']);
    expect(channelsOf({})).toEqual([]);
  });
});

describe('the messaging limits', () => {
  it('round-trip through the form, dropping channels without a limit', () => {
    const limits = { email: { bulk_per_day: 1, quiet_hours: { from: '22:00', to: '08:00' } }, sms: { bulk_per_week: 0 } };
    const form = limitsDraft(limits);
    expect(form.email).toEqual({ perDay: '1', perWeek: '', quietFrom: '22:00', quietTo: '08:00' });
    expect(form.telegram).toEqual({ perDay: '', perWeek: '', quietFrom: '', quietTo: '' });
    expect(limitsBody(form)).toEqual({ body: limits });
  });

  it('names the channel of a cap that is not a number or a window with one end', () => {
    const form = limitsDraft({});
    expect(limitsBody({ ...form, sms: { ...form.sms, perDay: 'x' } })).toEqual({ problem: 'sms' });
    expect(limitsBody({ ...form, email: { ...form.email, quietFrom: '22:00' } })).toEqual({ problem: 'email' });
  });

  it('finds the channel a refused save names', () => {
    expect(limitsRefusalChannel(refusal('Field `email.quiet_hours` needs two different times HH:MM.', 'email.quiet_hours'))).toBe('email');
    expect(limitsRefusalChannel(refusal('Request body must be an object.'))).toBeUndefined();
  });
});
