import { Type, type TSchema } from '@sinclair/typebox';
import { StatusErrorSchema, StatusSuccessSchema } from '../../http/envelopes.js';

/** The response schemas of the public routes, by the envelope family they answer in. */

export const StatusOkSchema = StatusSuccessSchema({});

/** Responses of a status-family route: its success shape and the error envelope. */
export function statusResponses(success: TSchema) {
  return {
    200: success,
    '4xx': StatusErrorSchema,
    '5xx': StatusErrorSchema,
  };
}

/** The bare data, or `{"status":"success","payload":{<key>: data}}` with v=2 (interface.md "Versioning"). */
export function versionedResponses(key: string, data: TSchema) {
  return {
    200: Type.Union([data, StatusSuccessSchema({ payload: Type.Object({ [key]: data }) })], {
      description: `The bare data; with v=2 or Accept-Version: 2, the status envelope with payload.${key}.`,
    }),
    '4xx': StatusErrorSchema,
    '5xx': StatusErrorSchema,
  };
}
