import { AppError } from '../../errors.js';
import { successTrue } from '../../http/envelopes.js';
import { PUBLIC_MEMBER_NOT_FOUND } from '../../modules/loyalty/domain/member-status.js';
import type { RewardCancelOutcome } from '../../modules/loyalty/loyalty-rewards.service.js';
import { authenticatedShop } from '../auth.js';
import type { PublicRouteModule } from '../types.js';
import { noSchemaValidation } from '../common/route-compilers.js';
import { readCancelRequest } from './bonuses.params.js';
import { CancelBodySchema, CancelResponses } from './bonuses.schemas.js';
import { LOYALTY_TAGS } from './loyalty.schemas.js';

/**
 * PATCH /loyalty/bonuses/cancel (interface.md endpoint 13; docs/loyalty.md "Event
 * rewards"): a server with the shop secret takes an event reward back. The success
 * envelope: `{"success":true}`, or `success: false` with one sentence, at the status of
 * contract-notes "Secrets and errors" (unknown member or transaction 404, a refusing rule 409).
 */
export const bonusesRoutes: PublicRouteModule = (scope) => {
  const rewards = scope.services.loyaltyRewards;

  scope.patch(
    '/loyalty/bonuses/cancel',
    {
      validatorCompiler: noSchemaValidation,
      config: { envelope: 'success', auth: 'shop+secret' },
      schema: {
        tags: LOYALTY_TAGS,
        summary: 'Cancel a reward given for a custom event',
        description:
          'Takes back what is left of an event reward of the member: a reward partly spent is cancelled up to what ' +
          'is left. Only event rewards can be cancelled here (409 otherwise); a transaction that is not the ' +
          "member's is 404, one already cancelled 409.",
        body: CancelBodySchema,
        response: CancelResponses,
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const { identifier, transactionId } = readCancelRequest(request.input);
      const outcome = await rewards.cancelReward(shop.shopId, identifier, transactionId);
      if (!outcome.ok) throw refusal(outcome.why);
      return successTrue();
    },
  );
};

type Refusal = Exclude<RewardCancelOutcome, { ok: true }>['why'];

/** Each refusal's status and sentence (contract-notes, "Secrets and errors"). */
const REFUSALS: Readonly<Record<Refusal, readonly [AppError['code'], string]>> = {
  member_not_found: ['NOT_FOUND', PUBLIC_MEMBER_NOT_FOUND],
  not_found: ['NOT_FOUND', 'Transaction is not found.'],
  already_cancelled: ['CONFLICT', 'Transaction is already cancelled.'],
  not_a_reward: ['CONFLICT', 'Transaction is not a reward for an event and cannot be cancelled.'],
};

function refusal(why: Refusal): AppError {
  const [code, message] = REFUSALS[why];
  return new AppError(code, message);
}
