import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import { describeError } from '../../http/http-errors.js';
import { schemeCredential } from '../../http/authorization.js';
import { addressLimitHook } from '../../http/limits/address-hook.js';
import { AppError } from '../../errors.js';
import { boundDeviceLog, httpDate } from '../../modules/messaging/wallet/domain/web-service.js';
import type { PassKey } from '../../modules/messaging/wallet/wallet.service.js';

/**
 * The PassKit web service (Apple, "Adding a Web Service to Update Passes";
 * docs/messaging-wallet.md, "The PassKit web service"): what Wallet on a device calls at the pass's
 * webServiceURL, `<PATRON_PUBLIC_URL>/wallet/<shop_id>`, with the protocol's own paths
 * and status codes. Outside the public API's plumbing (no shop keys or envelopes): the
 * credential is the pass's token in `Authorization: ApplePass <token>`, so registered on
 * its own in app.ts. Any failed authorization is 401 whether the pass exists or not.
 */

const PREFIX = '/wallet/:shopId/v1';
const tags = ['wallet'];
const JSON_UTF8 = 'application/json; charset=utf-8';

const ShopId = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'The shop id' });
const DeviceLibraryId = Type.String({ pattern: '^[A-Za-z0-9._-]{1,128}$', description: 'The device library identifier Wallet chose' });
const PassTypeId = Type.String({ pattern: '^pass\\.[A-Za-z0-9.-]{1,250}$', description: 'The pass type identifier' });
const SerialNumber = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'The pass serial number' });

const RegistrationParamsSchema = Type.Object({
  shopId: ShopId,
  deviceLibraryIdentifier: DeviceLibraryId,
  passTypeIdentifier: PassTypeId,
  serialNumber: SerialNumber,
});
type RegistrationParams = Static<typeof RegistrationParamsSchema>;
const RegistrationBodySchema = Type.Object({
  pushToken: Type.String({ pattern: '^[0-9a-fA-F]{16,200}$', description: 'The APNs token for pass-update pushes' }),
});
const SerialsParamsSchema = Type.Object({ shopId: ShopId, deviceLibraryIdentifier: DeviceLibraryId, passTypeIdentifier: PassTypeId });
const SerialsQuerySchema = Type.Object({
  passesUpdatedSince: Type.Optional(Type.String({ maxLength: 64, description: 'The lastUpdated tag of the previous answer' })),
});
const SerialsSchema = Type.Object({ serialNumbers: Type.Array(Type.String()), lastUpdated: Type.String() });
const PassParamsSchema = Type.Object({ shopId: ShopId, passTypeIdentifier: PassTypeId, serialNumber: SerialNumber });
type PassParams = Static<typeof PassParamsSchema>;
const LogParamsSchema = Type.Object({ shopId: ShopId });
const LogBodySchema = Type.Object({ logs: Type.Array(Type.String({ maxLength: 2_000 }), { maxItems: 100 }) });
const Empty = Type.Null({ description: 'No body' });

export const walletWebServicePlugin: FastifyPluginCallback = (app, _options, done) => {
  const { wallet } = app.services;

  app.setErrorHandler((error, request, reply) => {
    const view = describeError(error);
    if (view.internal) request.log.error({ err: error }, 'request failed');
    const retryAfter = error instanceof AppError ? error.details?.retryAfterSeconds : undefined;
    if (typeof retryAfter === 'number') void reply.header('retry-after', String(Math.ceil(retryAfter)));
    void reply.code(view.status).type(JSON_UTF8).send({ message: view.message });
  });
  // Devices are clients like any other: the per-address limit applies (docs/limits.md).
  app.addHook('onRequest', addressLimitHook(app.limits));

  app.post<{ Params: RegistrationParams; Body: Static<typeof RegistrationBodySchema> }>(
    `${PREFIX}/devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier/:serialNumber`,
    {
      bodyLimit: 4_096,
      schema: {
        tags,
        summary: "PassKit: register a device for a pass's updates",
        description:
          "201: registered; 200: the device had registered the pass already (its push token is updated); 401: not the pass's token.",
        params: RegistrationParamsSchema,
        body: RegistrationBodySchema,
        response: { 200: Empty, 201: Empty },
      },
    },
    async (request, reply) => {
      const outcome = await wallet.registerDevice(
        passKey(request, request.params),
        request.params.deviceLibraryIdentifier,
        request.body.pushToken,
      );
      return reply.code(outcome === 'created' ? 201 : outcome === 'exists' ? 200 : 401).send();
    },
  );

  app.delete<{ Params: RegistrationParams }>(
    `${PREFIX}/devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier/:serialNumber`,
    {
      schema: {
        tags,
        summary: "PassKit: unregister a device from a pass's updates",
        description: "200: unregistered (also when it was not registered); 401: not the pass's token.",
        params: RegistrationParamsSchema,
        response: { 200: Empty },
      },
    },
    async (request, reply) => {
      const outcome = await wallet.unregisterDevice(passKey(request, request.params), request.params.deviceLibraryIdentifier);
      return reply.code(outcome === 'removed' ? 200 : 401).send();
    },
  );

  app.get<{ Params: Static<typeof SerialsParamsSchema>; Querystring: Static<typeof SerialsQuerySchema> }>(
    `${PREFIX}/devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier`,
    {
      schema: {
        tags,
        summary: "PassKit: the serial numbers of a device's passes changed since a tag",
        description: '200 with the serial numbers and the new tag; 204 when none changed.',
        params: SerialsParamsSchema,
        querystring: SerialsQuerySchema,
        response: { 200: SerialsSchema, 204: Empty },
      },
    },
    async (request, reply) => {
      const { shopId, deviceLibraryIdentifier, passTypeIdentifier } = request.params;
      const found = await wallet.updatedSerials(shopId, deviceLibraryIdentifier, passTypeIdentifier, request.query.passesUpdatedSince);
      return found ? reply.code(200).send(found) : reply.code(204).send();
    },
  );

  app.get<{ Params: PassParams }>(
    `${PREFIX}/passes/:passTypeIdentifier/:serialNumber`,
    {
      schema: {
        tags,
        summary: 'PassKit: the latest version of a pass',
        description: "200 with the .pkpass and Last-Modified; 304 when not changed since If-Modified-Since; 401: not the pass's token.",
        params: PassParamsSchema,
      },
    },
    async (request, reply) => {
      const latest = await wallet.latestPass(passKey(request, request.params), headerValue(request, 'if-modified-since'));
      if (latest.kind === 'unauthorized') return reply.code(401).send();
      // The pass holds its token: no shared cache may keep it.
      void reply.header('last-modified', httpDate(latest.updatedAt)).header('cache-control', 'private, no-cache');
      if (latest.kind === 'not_modified') return reply.code(304).send();
      return reply.code(200).type('application/vnd.apple.pkpass').send(latest.pkpass);
    },
  );

  app.post<{ Params: Static<typeof LogParamsSchema>; Body: Static<typeof LogBodySchema> }>(
    `${PREFIX}/log`,
    {
      bodyLimit: 256 * 1024,
      schema: {
        tags,
        summary: 'PassKit: problems a device reports with our web service (logged)',
        description:
          '200 always, for a shop that has issued no pass too (nothing is logged then); 429 past the device logs one shop takes a minute. At most 10 messages of 500 characters are logged a request.',
        params: LogParamsSchema,
        body: LogBodySchema,
        response: { 200: Empty },
      },
    },
    async (request, reply) => {
      // Unauthenticated by the protocol, so bounded three ways (docs/messaging-wallet.md, "The PassKit web service"):
      // dropped unless the shop has passes devices could hold, a budget per shop, and a
      // few short messages a request. Logged at warn, never stored.
      const { shopId } = request.params;
      if (!(await wallet.hasIssuedPasses(shopId))) return reply.code(200).send();
      app.limits.checkWalletLog(shopId);
      request.log.warn({ shopId, ...boundDeviceLog(request.body.logs) }, 'wallet device log');
      return reply.code(200).send();
    },
  );
  done();
};

function passKey(request: FastifyRequest, params: { shopId: string; passTypeIdentifier: string; serialNumber: string }): PassKey {
  return {
    shopId: params.shopId,
    passTypeId: params.passTypeIdentifier,
    serialNumber: params.serialNumber,
    token: schemeCredential(headerValue(request, 'authorization'), 'ApplePass'),
  };
}

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}
