import type { PublicInput } from '../../http/input.js';
import { readString } from '../../http/readers.js';
import type { InitInput } from '../../modules/tracking/tracking.types.js';
import { readOptionalId } from '../common/identity.params.js';

/**
 * GET /init?shop_id=…[&v=3][&did][&sid][&stream][&tz][&referrer] (contract-notes,
 * "Identifiers"). `v` (the web SDK's protocol version) is optional: the official mobile
 * SDKs never send it, and an /init that refused them would leave the app without
 * tracking. Its value is not interpreted. An empty did or sid counts as absent (a web
 * SDK with an empty cookie), a malformed one is 422; a well-formed did the shop has never
 * seen is registered under that id (an SDK that brings its own Android ID or UUID).
 * stream, tz and referrer are optional texts; empty ones count as absent.
 */

export const MAX_INIT_TEXT_LENGTH = 255;
export const MAX_REFERRER_LENGTH = 2048;

export function toInitInput(input: PublicInput, shopId: string): InitInput {
  if (input.v !== '') readString(input, 'v', { optional: true, maxLength: 32 });
  const did = readOptionalId(input, 'did', { emptyIsAbsent: true });
  const sid = readOptionalId(input, 'sid', { emptyIsAbsent: true });
  const text = (name: string, maxLength: number) =>
    input[name] === '' ? undefined : readString(input, name, { optional: true, maxLength });
  const stream = text('stream', MAX_INIT_TEXT_LENGTH);
  const tz = text('tz', 64);
  const referrer = text('referrer', MAX_REFERRER_LENGTH);
  return {
    shopId,
    ...(did !== undefined && { did }),
    ...(sid !== undefined && { sid }),
    ...(stream !== undefined && { stream }),
    ...(tz !== undefined && { tz }),
    ...(referrer !== undefined && { referrer }),
  };
}
