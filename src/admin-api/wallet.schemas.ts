import { Type, type Static } from '@sinclair/typebox';

export const IssuePassBodySchema = Type.Object(
  { profile_id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'The profile the pass is for (a merged id leads to its survivor)' }) },
  { additionalProperties: false },
);
export type IssuePassBody = Static<typeof IssuePassBodySchema>;

export const PkpassSchema = Type.String({
  description: 'The signed pass, application/vnd.apple.pkpass; its serial number is in the `X-Pass-Serial-Number` header',
  contentMediaType: 'application/vnd.apple.pkpass',
});
