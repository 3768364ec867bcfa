import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CSV_CONTENT_TYPE, csvLine } from '../http/csv-writer.js';
import type { Block } from '../modules/recommendations/blocks.service.js';
import type { BlockStats } from '../modules/recommendations/figures.service.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import {
  BlockListSchema,
  BlockParamsSchema,
  BlockSchema,
  BlockStatsQuerySchema,
  BlockStatsSchema,
  PutBlockBodySchema,
  type BlockBody,
  type BlockStatsBody,
} from './recommendation-blocks.schemas.js';

const tags = ['recommendations'];

/** admin-api.md, Recommendation blocks: what GET /recommend/{code} answers. */
export const recommendationBlocksRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const blocks = app.services.recommendationBlocks;
  const figures = app.services.recommendationFigures;

  app.put(
    '/shops/:shop_id/recommendation-blocks/:code',
    {
      schema: {
        tags,
        summary: 'Create or replace a recommendation block',
        description: 'A rule the block cannot hold is refused with 422 naming its path (`rules[1].then[0].recommender`).',
        security: ADMIN_SECURITY,
        params: BlockParamsSchema,
        body: PutBlockBodySchema,
        response: withErrors({ 200: BlockSchema }, [404]),
      },
    },
    async (request) => toBody(await blocks.putBlock(request.params.shop_id, request.params.code, request.body)),
  );

  app.get(
    '/shops/:shop_id/recommendation-blocks',
    {
      schema: {
        tags,
        summary: 'List recommendation blocks',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: BlockListSchema }, [404]),
      },
    },
    async (request) => ({ blocks: (await blocks.listBlocks(request.params.shop_id)).map(toBody) }),
  );

  app.get(
    '/shops/:shop_id/recommendation-blocks/:code',
    {
      schema: {
        tags,
        summary: 'Get a recommendation block',
        security: ADMIN_SECURITY,
        params: BlockParamsSchema,
        response: withErrors({ 200: BlockSchema }, [404]),
      },
    },
    async (request) => toBody(await blocks.getBlock(request.params.shop_id, request.params.code)),
  );

  app.delete(
    '/shops/:shop_id/recommendation-blocks/:code',
    {
      schema: {
        tags,
        summary: 'Delete a recommendation block',
        security: ADMIN_SECURITY,
        params: BlockParamsSchema,
        response: withErrors({ 204: Type.Null({ description: 'Deleted.' }) }, [404]),
      },
    },
    async (request, reply) => {
      await blocks.deleteBlock(request.params.shop_id, request.params.code);
      return reply.code(204).send(null);
    },
  );

  const statsText =
    'The block’s figures per day of the shop’s time zone from `date_from` to `date_to` (both included, at most 366 ' +
    'days), days with nothing as zeros, with totals: impressions and clicks (recone_view / recone_click naming the ' +
    'block), views and carts carrying its code, orders with an item attributed to it and their revenue (docs/' +
    'recommendations.md "Figures"). Read from daily rows kept as events arrive. A bad period is a 422 naming the field.';
  const statsSchema = { tags, security: ADMIN_SECURITY, params: BlockParamsSchema, querystring: BlockStatsQuerySchema };

  app.get(
    '/shops/:shop_id/recommendation-blocks/:code/stats',
    {
      schema: {
        ...statsSchema,
        summary: 'A recommendation block’s figures over a period',
        description: statsText,
        response: withErrors({ 200: BlockStatsSchema }, [404]),
      },
    },
    async (request) => {
      const { shop_id: shopId, code } = request.params;
      return toStatsBody(await figures.stats(shopId, code, request.query.date_from, request.query.date_to));
    },
  );

  app.get(
    '/shops/:shop_id/recommendation-blocks/:code/stats.csv',
    {
      schema: {
        ...statsSchema,
        summary: 'A recommendation block’s figures over a period, as CSV',
        description: `${statsText} One row per day, then a \`total\` row.`,
        produces: ['text/csv'],
        response: withErrors({ 200: Type.String({ description: 'CSV with a header row (RFC 4180, CRLF).' }) }, [404]),
      },
    },
    async (request, reply) => {
      const { shop_id: shopId, code } = request.params;
      const stats = toStatsBody(await figures.stats(shopId, code, request.query.date_from, request.query.date_to));
      return reply
        .type(CSV_CONTENT_TYPE)
        .header('content-disposition', `attachment; filename="recommendations-${stats.code}-${stats.date_from}-${stats.date_to}.csv"`)
        .header('cache-control', 'no-store')
        .send(statsCsv(stats));
    },
  );

  done();
};

const STATS_COLUMNS = ['impressions', 'clicks', 'ctr', 'views', 'carts', 'orders', 'revenue'] as const;

function statsCsv(stats: BlockStatsBody): string {
  const lines = [csvLine(['date', ...STATS_COLUMNS])];
  for (const day of stats.days) lines.push(csvLine([day.date, ...STATS_COLUMNS.map((c) => day[c])]));
  lines.push(csvLine(['total', ...STATS_COLUMNS.map((c) => stats.totals[c])]));
  return lines.join('');
}

/** clicks / impressions to 4 decimals; 0 without impressions. */
const ctr = (clicks: number, impressions: number) => (impressions === 0 ? 0 : Math.round((clicks / impressions) * 10_000) / 10_000);

function toStatsBody(stats: BlockStats): BlockStatsBody {
  // Money is minor units inside; the answer gives the shop's currency units.
  const shown = <T extends BlockStats['totals']>(f: T) => ({
    impressions: f.impressions,
    clicks: f.clicks,
    ctr: ctr(f.clicks, f.impressions),
    views: f.views,
    carts: f.carts,
    orders: f.orders,
    revenue: f.revenue / 100,
  });
  return {
    code: stats.code,
    date_from: stats.from,
    date_to: stats.to,
    timezone: stats.timezone,
    totals: shown(stats.totals),
    days: stats.days.map((day) => ({ date: day.date, ...shown(day) })),
  };
}

function toBody(block: Block): BlockBody {
  return {
    id: block.id,
    code: block.code,
    name: block.name,
    title: block.title,
    limit: block.limit,
    rules: [...block.rules],
    created_at: new Date(block.createdAt).toISOString(),
    updated_at: new Date(block.updatedAt).toISOString(),
  };
}
