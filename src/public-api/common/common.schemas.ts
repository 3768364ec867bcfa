import { Type } from '@sinclair/typebox';
import { DEVICE_ID_PATTERN_TEXT, SESSION_ID_PATTERN_TEXT } from '../../modules/identity/domain/identifiers.js';

/** Parameters that the public groups describe alike in the OpenAPI document. */

/** `shop_id` of every public route (auth.ts checks it before any schema would). */
export const ShopIdSchema = Type.String({ description: 'The shop id: 30 hexadecimal characters.', pattern: '^[0-9a-fA-F]{30}$' });

/** A `did` (contract-notes, "Identifiers"), described for its route. */
export const DeviceIdSchema = (description: string) =>
  Type.String({ description: `${description} 8 to 64 characters [A-Za-z0-9-].`, pattern: DEVICE_ID_PATTERN_TEXT });

/** A `sid` or its legacy alias `seance`, described for its route. */
export const SessionIdSchema = (description: string) => Type.String({ description, pattern: SESSION_ID_PATTERN_TEXT });
