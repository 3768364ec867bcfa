import { Readable } from 'node:stream';
import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CSV_CONTENT_TYPE, csvLine } from '../http/csv-writer.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import {
  CategoryListSchema,
  CategorySchema,
  ChannelListSchema,
  ChannelSchema,
  NpsCodeParamsSchema,
  PutCategoryBodySchema,
  PutChannelBodySchema,
  ReviewParamsSchema,
  ReviewsExportQuerySchema,
  ReviewsPageSchema,
  ReviewsQuerySchema,
  ScoreQuerySchema,
  ScoreSchema,
} from './nps.schemas.js';
import { CSV_COLUMNS, SCORE_COLUMNS, toCategoryBody, toChannelBody, toCsvRow, toQuery, toReviewBody, toScoreBody } from './nps.mappers.js';
import { cursorKey, encodeCursor } from './paging.js';
import { integerQueryParameters } from './query-integers.js';

const tags = ['nps'];
const REVIEW_KEY = ['string', 'integer'] as const;
const deleted = Type.Null({ description: 'Deleted.' });

/** admin-api.md "NPS" (docs/nps.md): the settings apps read, the reviews they send and the score. */
export const npsRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const settings = app.services.npsSettings;
  const reviews = app.services.npsReviews;
  const base = '/shops/:shop_id/nps';

  app.put(
    `${base}/channels/:code`,
    {
      schema: {
        tags,
        summary: 'Create or rename an NPS channel',
        description: 'A channel is where a review comes from (`android_app`, `ios_app`, `email`); apps send its code.',
        security: ADMIN_SECURITY,
        params: NpsCodeParamsSchema,
        body: PutChannelBodySchema,
        response: withErrors({ 200: ChannelSchema }, [404]),
      },
    },
    async (request) => toChannelBody(await settings.putChannel(request.params.shop_id, request.params.code, request.body)),
  );

  app.get(
    `${base}/channels`,
    {
      schema: {
        tags,
        summary: 'List NPS channels',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: ChannelListSchema }, [404]),
      },
    },
    async (request) => ({ channels: (await settings.listChannels(request.params.shop_id)).map(toChannelBody) }),
  );

  app.delete(
    `${base}/channels/:code`,
    {
      schema: {
        tags,
        summary: 'Delete an NPS channel',
        description: 'Apps can no longer send reviews naming it; the reviews it has keep its code and count in the score.',
        security: ADMIN_SECURITY,
        params: NpsCodeParamsSchema,
        response: withErrors({ 204: deleted }, [404]),
      },
    },
    async (request, reply) => {
      await settings.deleteChannel(request.params.shop_id, request.params.code);
      return reply.code(204).send(null);
    },
  );

  app.put(
    `${base}/categories/:code`,
    {
      schema: {
        tags,
        summary: 'Create or replace an NPS category',
        description: 'What a review rates (`delivery`, `checkout`), with the question and thank-you text for each group of ratings.',
        security: ADMIN_SECURITY,
        params: NpsCodeParamsSchema,
        body: PutCategoryBodySchema,
        response: withErrors({ 200: CategorySchema }, [404]),
      },
    },
    async (request) => toCategoryBody(await settings.putCategory(request.params.shop_id, request.params.code, request.body)),
  );

  app.get(
    `${base}/categories`,
    {
      schema: {
        tags,
        summary: 'List NPS categories',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: CategoryListSchema }, [404]),
      },
    },
    async (request) => ({ categories: (await settings.listCategories(request.params.shop_id)).map(toCategoryBody) }),
  );

  app.delete(
    `${base}/categories/:code`,
    {
      schema: {
        tags,
        summary: 'Delete an NPS category',
        description: 'Apps can no longer send reviews naming it; the reviews it has keep its code and count in the score.',
        security: ADMIN_SECURITY,
        params: NpsCodeParamsSchema,
        response: withErrors({ 204: deleted }, [404]),
      },
    },
    async (request, reply) => {
      await settings.deleteCategory(request.params.shop_id, request.params.code);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${base}/reviews`,
    {
      schema: {
        tags,
        summary: 'List NPS reviews',
        description: 'Reviews of the days from `date_from` to `date_to` (the shop’s time zone), filtered, paged by `next_cursor`.',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: ReviewsQuerySchema,
        response: withErrors({ 200: ReviewsPageSchema }, [404]),
      },
      preValidation: (request, _reply, next) => {
        integerQueryParameters(request, 'limit', 'rate_min', 'rate_max');
        next();
      },
    },
    async (request) => {
      const { cursor, limit = 50 } = request.query;
      const after = cursorKey(cursor, REVIEW_KEY);
      const rows = await reviews.listReviews(request.params.shop_id, toQuery(request.query), after, limit + 1);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        reviews: page.map(toReviewBody),
        next_cursor: rows.length > limit && last !== undefined ? encodeCursor([last.day, last.id]) : null,
      };
    },
  );

  app.get(
    `${base}/reviews.csv`,
    {
      schema: {
        tags,
        summary: 'Download NPS reviews as CSV',
        description: `The reviews the list would show, every page: \`${CSV_COLUMNS.join(',')}\`; times in ISO 8601 (UTC).`,
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: ReviewsExportQuerySchema,
        produces: ['text/csv'],
        response: withErrors({ 200: Type.String({ description: 'CSV with a header row (RFC 4180, CRLF).' }) }, [404]),
      },
      preValidation: (request, _reply, next) => {
        integerQueryParameters(request, 'rate_min', 'rate_max');
        next();
      },
    },
    async (request, reply) => {
      const query = toQuery(request.query);
      const batches = await reviews.exportReviews(request.params.shop_id, query);
      async function* lines() {
        yield csvLine(CSV_COLUMNS);
        for await (const batch of batches) yield batch.map(toCsvRow).join('');
      }
      return (
        reply
          .type(CSV_CONTENT_TYPE)
          .header('content-disposition', `attachment; filename="nps-reviews-${query.dateFrom}-${query.dateTo}.csv"`)
          .header('cache-control', 'no-store')
          // A stream is piped as it is; the 200 schema documents the text for the OpenAPI document.
          .send(Readable.from(lines()) as unknown as string)
      );
    },
  );

  app.delete(
    `${base}/reviews/:id`,
    {
      schema: {
        tags,
        summary: 'Delete an NPS review',
        description: 'It no longer counts in the score.',
        security: ADMIN_SECURITY,
        params: ReviewParamsSchema,
        response: withErrors({ 204: deleted }, [404]),
      },
    },
    async (request, reply) => {
      await reviews.deleteReview(request.params.shop_id, Number(request.params.id));
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${base}/score`,
    {
      schema: {
        tags,
        summary: 'The NPS per day or week, channel and category',
        description:
          'NPS = % promoters (9–10) − % detractors (0–6) of the reviews answered, per day (or week) of the shop’s time zone ' +
          'from `date_from` to `date_to` (at most 366 days), with the counts, the period’s totals and its score per channel ' +
          'and per category. `channel` and `category` narrow every figure.',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: ScoreQuerySchema,
        response: withErrors({ 200: ScoreSchema }, [404]),
      },
    },
    async (request) => toScoreBody(await reviews.score(request.params.shop_id, toQuery(request.query), request.query.interval ?? 'day')),
  );

  app.get(
    `${base}/score.csv`,
    {
      schema: {
        tags,
        summary: 'The NPS per day or week, as CSV',
        description: `The score's points: \`${SCORE_COLUMNS.join(',')}\`, then a \`total\` row; \`nps\` is empty without answers.`,
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: ScoreQuerySchema,
        produces: ['text/csv'],
        response: withErrors({ 200: Type.String({ description: 'CSV with a header row (RFC 4180, CRLF).' }) }, [404]),
      },
    },
    async (request, reply) => {
      const score = await reviews.score(request.params.shop_id, toQuery(request.query), request.query.interval ?? 'day');
      const lines = [csvLine(['date', ...SCORE_COLUMNS])];
      for (const point of score.points) lines.push(csvLine([point.date, ...SCORE_COLUMNS.map((c) => point[c])]));
      lines.push(csvLine(['total', ...SCORE_COLUMNS.map((c) => score.totals[c])]));
      return reply
        .type(CSV_CONTENT_TYPE)
        .header('content-disposition', `attachment; filename="nps-score-${score.from}-${score.to}.csv"`)
        .header('cache-control', 'no-store')
        .send(lines.join(''));
    },
  );

  done();
};
