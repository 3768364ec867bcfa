import { Type, type Static } from '@sinclair/typebox';

export const IssuePassBodySchema = Type.Object(
  {
    profile_id: Type.Integer({
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'The profile the pass is for (a merged id leads to its survivor)',
    }),
  },
  { additionalProperties: false },
);
export type IssuePassBody = Static<typeof IssuePassBodySchema>;

/** Bytes, not JSON: Fastify sends a Buffer as it is, and the document shows a binary string. */
export const PkpassSchema = Type.Unsafe<Buffer>({
  type: 'string',
  format: 'binary',
  description: 'The signed pass, application/vnd.apple.pkpass; its serial number is in the `X-Pass-Serial-Number` header',
});
