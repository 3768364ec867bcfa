import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import { IssuePassBodySchema, PkpassSchema } from './wallet.schemas.js';

/**
 * Apple Wallet passes (docs/messaging-wallet.md, "Issuing a pass (admin)"). Issuing is an admin
 * call, not a public one: a pass carries the member's identifier and balance, so the
 * shop's backend, which knows who its customer is, fetches it and hands it over.
 */
export const walletRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const { wallet } = app.services;

  app.post(
    '/shops/:shop_id/wallet/passes',
    {
      schema: {
        tags: ['wallet'],
        summary: 'Issue an Apple Wallet pass (.pkpass) to a profile',
        description:
          'Every call issues a new pass with its own serial number and authentication token (Apple never lets a ' +
          "pass's token change, and only its hash is kept): hand the file to the customer. Passes issued before keep " +
          'receiving messages. 409 when the wallet channel is not configured or its certificates cannot sign.',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        body: IssuePassBodySchema,
        response: withErrors({ 200: PkpassSchema }, [404, 409]),
      },
    },
    async (request, reply) => {
      const issued = await wallet.issuePass(request.params.shop_id, request.body.profile_id);
      return reply
        .type('application/vnd.apple.pkpass')
        .header('content-disposition', 'attachment; filename="pass.pkpass"')
        .header('x-pass-serial-number', issued.serialNumber)
        .header('cache-control', 'no-store')
        .send(issued.pkpass);
    },
  );
  done();
};
