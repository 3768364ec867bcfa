import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { en, type MessageKey } from '../i18n/en';
import { interpolate } from '../i18n/language';
import { customerOf, previewFailure, requestOf, sameRequest, type FoundCustomer } from './preview';

const t = (key: MessageKey, values?: Readonly<Record<string, string | number>>) => interpolate(en[key], values);

const found = (id: number, fields: Partial<FoundCustomer> = {}): FoundCustomer => ({
  id,
  email: null,
  phone: null,
  external_id: null,
  loyalty_id: null,
  telegram_id: null,
  ...fields,
});

describe('the preview’s customer', () => {
  it('is the first profile holding the identifier, named by its email, else its phone or other ids', () => {
    expect(customerOf('ann@example.com', [found(7, { email: 'ann@example.com' }), found(9)])).toEqual({
      profileId: 7,
      label: 'ann@example.com',
    });
    expect(customerOf('+7 900 000-00-01', [found(8, { phone: '79000000001' })])).toEqual({ profileId: 8, label: '79000000001' });
    expect(customerOf('dev-1', [found(3)])).toEqual({ profileId: 3, label: 'dev-1' });
  });

  it('is the typed number as a profile id when no profile holds it as an identifier, and none for other text', () => {
    expect(customerOf('42', [])).toEqual({ profileId: 42, label: '42' });
    expect(customerOf('0', [])).toBeUndefined();
    expect(customerOf('5243787909705439', [])).toEqual({ profileId: 5243787909705439, label: '5243787909705439' });
    expect(customerOf('9007199254740993', [])).toBeUndefined();
    expect(customerOf('12345678901234567', [])).toBeUndefined();
    expect(customerOf('nobody@example.com', [])).toBeUndefined();
  });
});

describe('a failed preview', () => {
  const request = { item: 'A', customer: '42' };

  it('shows the server’s 422 under the input it names', () => {
    const item = new ApiError(422, 'VALIDATION_FAILED', 'Query parameter `item` must be at most 255 characters.', 'item');
    expect(previewFailure(item, request, t)).toEqual({ field: 'item', message: item.message });
    const profile = new ApiError(422, 'VALIDATION_FAILED', 'Query parameter `profile_id` must be at least 1.', 'profile_id');
    expect(previewFailure(profile, request, t)).toEqual({ field: 'customer', message: profile.message });
    const identifier = new ApiError(422, 'VALIDATION_FAILED', 'Query parameter `identifier` is too long.', 'identifier');
    expect(previewFailure(identifier, request, t)).toEqual({ field: 'customer', message: identifier.message });
  });

  it('says a missing customer at the customer, and a missing block above the panel', () => {
    const customer = new ApiError(404, 'NOT_FOUND', 'Customer not found.', undefined);
    expect(previewFailure(customer, request, t)).toEqual({ field: 'customer', message: 'There is no customer 42.' });
    const block = new ApiError(404, 'NOT_FOUND', 'Recommendation block `pdp` does not exist.', undefined);
    expect(previewFailure(block, request, t)).toEqual({ form: t('error.notFound') });
    expect(previewFailure(customer, { item: 'A', customer: '' }, t)).toEqual({ form: t('error.notFound') });
  });

  it('puts any other failure above the panel in words', () => {
    expect(previewFailure(new ApiError(500, 'INTERNAL', 'boom', undefined), request, t)).toEqual({ form: t('error.generic') });
    expect(previewFailure(new TypeError('fetch failed'), request, t)).toEqual({ form: t('error.network') });
  });
});

describe('a preview request', () => {
  it('is what was typed, trimmed, and the same one again only when both inputs are', () => {
    const request = requestOf('  A ', ' 42');
    expect(request).toEqual({ item: 'A', customer: '42' });
    expect(sameRequest(null, request)).toBe(false);
    expect(sameRequest({ item: 'A', customer: '42' }, request)).toBe(true);
    expect(sameRequest({ item: 'A', customer: '' }, request)).toBe(false);
  });
});
