import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Endpoint, WebhookDeliveryView } from '../modules/webhooks/webhooks.service.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import { integerQueryParameters } from './query-integers.js';
import {
  CreatedEndpointSchema,
  CreateEndpointBodySchema,
  DeliveriesQuerySchema,
  DeliveryListSchema,
  DeliveryParamsSchema,
  EndpointListSchema,
  EndpointParamsSchema,
  EndpointSchema,
  PatchEndpointBodySchema,
  RotatedSecretSchema,
  type DeliveryListBody,
  type EndpointBody,
} from './webhooks.schemas.js';

const tags = ['webhooks'];
const BASE = '/shops/:shop_id/webhooks/endpoints';

/** Outbound webhooks (docs/webhooks.md): endpoints, secret rotation and the deliveries of each. */
export const webhooksRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const webhooks = app.services.webhooks;

  app.post(
    BASE,
    {
      schema: {
        tags,
        summary: 'Register a webhook endpoint',
        description:
          'The URL is checked against the private-address guard now and again at every delivery. The answer carries ' +
          'the signing secret, which is never shown again.',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        body: CreateEndpointBodySchema,
        response: withErrors({ 201: CreatedEndpointSchema }, [404, 409, 415]),
      },
    },
    async (request, reply) => {
      const { url, event_types: eventTypes, description } = request.body;
      const created = await webhooks.createEndpoint(request.params.shop_id, {
        url,
        eventTypes,
        ...(description !== undefined && { description }),
      });
      return reply.code(201).send({ ...toEndpointBody(created.endpoint), secret: created.secret });
    },
  );

  app.get(
    BASE,
    {
      schema: {
        tags,
        summary: 'Webhook endpoints',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: EndpointListSchema }, [404]),
      },
    },
    async (request) => ({ endpoints: (await webhooks.listEndpoints(request.params.shop_id)).map(toEndpointBody) }),
  );

  app.get(
    `${BASE}/:endpoint_id`,
    {
      schema: {
        tags,
        summary: 'A webhook endpoint',
        security: ADMIN_SECURITY,
        params: EndpointParamsSchema,
        response: withErrors({ 200: EndpointSchema }, [404]),
      },
    },
    async (request) => toEndpointBody(await webhooks.getEndpoint(request.params.shop_id, request.params.endpoint_id)),
  );

  app.patch(
    `${BASE}/:endpoint_id`,
    {
      schema: {
        tags,
        summary: 'Change or disable a webhook endpoint',
        description: '`enabled: false` stops its deliveries; `enabled: true` resumes them, also after a 410 Gone disabled it.',
        security: ADMIN_SECURITY,
        params: EndpointParamsSchema,
        body: PatchEndpointBodySchema,
        response: withErrors({ 200: EndpointSchema }, [404, 415]),
      },
    },
    async (request) => {
      const { url, event_types: eventTypes, description, enabled } = request.body;
      const endpoint = await webhooks.updateEndpoint(request.params.shop_id, request.params.endpoint_id, {
        ...(url !== undefined && { url }),
        ...(eventTypes !== undefined && { eventTypes }),
        ...(description !== undefined && { description }),
        ...(enabled !== undefined && { enabled }),
      });
      return toEndpointBody(endpoint);
    },
  );

  app.delete(
    `${BASE}/:endpoint_id`,
    {
      schema: {
        tags,
        summary: 'Delete a webhook endpoint',
        description: 'With its deliveries; those still pending are not sent.',
        security: ADMIN_SECURITY,
        params: EndpointParamsSchema,
        response: withErrors({ 204: Type.Null({ description: 'Deleted.' }) }, [404]),
      },
    },
    async (request, reply) => {
      await webhooks.deleteEndpoint(request.params.shop_id, request.params.endpoint_id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${BASE}/:endpoint_id/rotate-secret`,
    {
      schema: {
        tags,
        summary: "Rotate an endpoint's signing secret",
        description: 'The new secret is answered this once; the previous one keeps signing beside it for 24 hours.',
        security: ADMIN_SECURITY,
        params: EndpointParamsSchema,
        response: withErrors({ 200: RotatedSecretSchema }, [404, 409, 415]),
      },
    },
    async (request) => {
      const rotated = await webhooks.rotateSecret(request.params.shop_id, request.params.endpoint_id);
      return { secret: rotated.secret, previous_secret_expires_at: iso(rotated.previousSecretUntil) };
    },
  );

  app.get(
    `${BASE}/:endpoint_id/deliveries`,
    {
      schema: {
        tags,
        summary: "An endpoint's deliveries",
        description: 'Newest first, each with its attempts, the last HTTP status or error, and the next attempt of a pending one.',
        security: ADMIN_SECURITY,
        params: EndpointParamsSchema,
        querystring: DeliveriesQuerySchema,
        response: withErrors({ 200: DeliveryListSchema }, [404]),
      },
      preValidation: (request, _reply, next) => {
        integerQueryParameters(request, 'limit', 'offset');
        next();
      },
    },
    async (request) => {
      const { limit, offset, status } = request.query;
      const deliveries = await webhooks.listDeliveries(request.params.shop_id, request.params.endpoint_id, {
        limit: limit ?? 50,
        offset: offset ?? 0,
        ...(status !== undefined && { status }),
      });
      return { deliveries: deliveries.map(toDeliveryBody) };
    },
  );

  app.post(
    `${BASE}/:endpoint_id/deliveries/:delivery_id/retry`,
    {
      schema: {
        tags,
        summary: 'Send a failed delivery again',
        description:
          'The same webhook-id and body, with a fresh set of attempts. 409 when the delivery is not failed or the endpoint is disabled.',
        security: ADMIN_SECURITY,
        params: DeliveryParamsSchema,
        response: withErrors({ 202: Type.Null({ description: 'Queued.' }) }, [404, 409, 415]),
      },
    },
    async (request, reply) => {
      const { shop_id: shopId, endpoint_id: endpointId, delivery_id: deliveryId } = request.params;
      await webhooks.retryDelivery(shopId, endpointId, deliveryId);
      return reply.code(202).send(null);
    },
  );

  done();
};

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : iso(ms);
}

function toEndpointBody(endpoint: Endpoint): EndpointBody {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    event_types: [...endpoint.eventTypes],
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabledReason,
    previous_secret_expires_at: isoOrNull(endpoint.previousSecretUntil),
    created_at: iso(endpoint.createdAt),
    updated_at: iso(endpoint.updatedAt),
  };
}

function toDeliveryBody(delivery: WebhookDeliveryView): DeliveryListBody['deliveries'][number] {
  return {
    id: delivery.id,
    event_type: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    last_status_code: delivery.lastStatusCode,
    last_duration_ms: delivery.lastDurationMs,
    last_error: delivery.lastError,
    last_attempt_at: isoOrNull(delivery.lastAttemptAt),
    next_attempt_at: isoOrNull(delivery.nextAttemptAt),
    created_at: iso(delivery.createdAt),
  };
}
