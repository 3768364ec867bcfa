import { AppError } from '../../errors.js';
import type { PublicInput } from '../../http/input.js';
import { readInteger, validationError } from '../../http/readers.js';
import { readFlag } from '../../modules/audience/domain/fields.js';
import { PUSH_PLATFORMS, PUSH_TOKEN_MAX_LENGTH } from '../../modules/audience/domain/record-parts.js';
import { SUBSCRIPTION_FLAGS, type PushPlatform, type SubscriptionFlag } from '../../modules/audience/domain/record.js';
import type { CustomerRef } from '../../modules/audience/profiles.service.js';
import { SECRET_MESSAGES } from '../auth.js';
import { readCustomer, readRequiredDid } from '../common/identity.params.js';

/**
 * Parameters of the profile group (docs/profiles.md): POST /profile/set, GET /profile,
 * POST /mobile_push_tokens, POST /subscriptions/manage and the static segment calls, as
 * the platform's mobile SDK sends them. `did`, `sid`/`seance`, `stream` and `segment`
 * come with every SDK call; only `did` is used here.
 */

/**
 * POST /profile/set: the device (absent 401, as on /push), or, for a caller with the
 * shop's secret and no device, the identifiers of the update itself.
 */
export function readProfileOwner(input: PublicInput, trusted: boolean): CustomerRef {
  if (trusted && (input.did === undefined || input.did === '')) return readCustomer(input, true);
  return { did: readRequiredDid(input), identifiers: {} };
}

/** GET /profile without the secret: the device only (its identifiers are what the full profile shows). */
export function readDeviceCustomer(input: PublicInput, trusted: boolean): CustomerRef {
  const customer = readCustomer(input, trusted);
  if (trusted || Object.keys(customer.identifiers).length === 0) return customer;
  throw new AppError('UNAUTHORIZED', SECRET_MESSAGES.status);
}

/** POST /mobile_push_tokens: `token` (the FCM or APNs token) and `platform` (`ios` or `android`). */
export function readPushToken(input: PublicInput): { token: string; platform: PushPlatform } {
  const token = input.token;
  if (token === undefined || token === '') throw validationError('token', 'is required');
  if (typeof token !== 'string') throw validationError('token', 'must be a string');
  if (token.length > PUSH_TOKEN_MAX_LENGTH) throw validationError('token', `must be at most ${PUSH_TOKEN_MAX_LENGTH} characters`);
  const platform = input.platform;
  if (platform === undefined || platform === '') throw validationError('platform', 'is required');
  const name = typeof platform === 'string' ? platform.trim().toLowerCase() : undefined;
  if (!(PUSH_PLATFORMS as readonly (string | undefined)[]).includes(name)) {
    throw validationError('platform', `must be one of ${PUSH_PLATFORMS.join(', ')}`);
  }
  return { token, platform: name as PushPlatform };
}

/** POST /segments/add and /segments/remove: the segment's id, a positive integer (the SDK sends it as text). */
export function readSegmentId(input: PublicInput): number {
  return readInteger(input, 'segment_id', { min: 1 });
}

/**
 * POST /subscriptions/manage: the flags given, at least one. Read as the audience import
 * reads them (true/false, 1/0, "true"/"false"), never by the looser /push cast: a flag
 * read wrongly would send mail to someone who declined it.
 */
export function readSubscriptionFlags(input: PublicInput): Partial<Record<SubscriptionFlag, boolean>> {
  const flags: Partial<Record<SubscriptionFlag, boolean>> = {};
  for (const flag of SUBSCRIPTION_FLAGS) {
    const value = input[flag];
    if (value === undefined || value === '') continue;
    const read = readFlag(value);
    if (!read.ok) throw validationError(flag, read.reason);
    flags[flag] = read.value;
  }
  if (Object.keys(flags).length === 0) {
    throw new AppError('VALIDATION_FAILED', `At least one of ${SUBSCRIPTION_FLAGS.map((f) => `\`${f}\``).join(', ')} is required.`, {
      field: SUBSCRIPTION_FLAGS.join(','),
    });
  }
  return flags;
}
