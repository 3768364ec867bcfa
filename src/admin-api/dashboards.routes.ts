import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError } from '../errors.js';
import { CSV_CONTENT_TYPE } from '../http/csv-writer.js';
import type { Dashboard } from '../modules/dashboards/dashboards.service.js';
import type { Funnel, FunnelType } from '../modules/dashboards/domain/series.js';
import { rate } from '../modules/dashboards/domain/overview.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import {
  DashboardQuerySchema,
  DashboardSchema,
  FunnelParamsSchema,
  FunnelSchema,
  type DashboardBody,
  type FunnelBody,
} from './dashboards.schemas.js';
import { dashboardCsv, funnelCsv } from './dashboards.csv.js';

const tags = ['dashboards'];
const CSV_RESPONSE = Type.String({ description: 'CSV with a header row (RFC 4180, CRLF).' });

/**
 * docs/dashboards.md: the overview of a period and each mailing's funnel, read from the
 * daily rollups. Every answer also downloads as CSV at the same path ending in `.csv`,
 * with a Content-Disposition file name (as the promo codes' export).
 */
export const dashboardsRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const dashboards = app.services.dashboards;

  const overviewSchema = {
    tags,
    security: ADMIN_SECURITY,
    params: ShopIdParamsSchema,
    querystring: DashboardQuerySchema,
  };
  const overviewText =
    'Every series per day of the shop’s time zone from `from` to `to` (both included, at most 366 days), days with ' +
    'nothing as zeros, with totals: events by type, active customers, orders and revenue, new loyalty members, bonuses ' +
    'issued and spent, messages by channel sent / opened / clicked, purchases and revenue attributed to messages; and the ' +
    'loyalty liabilities now. Read from daily rollups kept as data arrives. A bad period is a 422 naming `from` or `to`.';

  app.get(
    '/shops/:shop_id/dashboard',
    {
      schema: {
        ...overviewSchema,
        summary: 'A shop’s dashboard over a period',
        description: overviewText,
        response: withErrors({ 200: DashboardSchema }, [404]),
      },
    },
    async (request) =>
      toDashboardBody(request.params.shop_id, await dashboards.overview(request.params.shop_id, request.query.from, request.query.to)),
  );

  app.get(
    '/shops/:shop_id/dashboard.csv',
    {
      schema: {
        ...overviewSchema,
        summary: 'A shop’s dashboard over a period, as CSV',
        description: `${overviewText} One row per day, then a \`total\` row; events as \`events.<type>\` and messages as \`<channel>.sent\` … columns.`,
        produces: ['text/csv'],
        response: withErrors({ 200: CSV_RESPONSE }, [404]),
      },
    },
    async (request, reply) => {
      const { shop_id: shopId } = request.params;
      const dashboard = await dashboards.overview(shopId, request.query.from, request.query.to);
      return reply
        .type(CSV_CONTENT_TYPE)
        .header('content-disposition', `attachment; filename="dashboard-${dashboard.from}-${dashboard.to}.csv"`)
        .header('cache-control', 'no-store')
        .send(dashboardCsv(dashboard));
    },
  );

  const funnelText =
    'A transactional mailing’s, chain’s or bulk mailing’s funnel: sent, delivered, opened, clicked, purchased and ' +
    'revenue, in all and per channel, from counters kept per mailing as messages are sent and their outcomes arrive ' +
    '(zeros before its first send).';
  app.get(
    '/shops/:shop_id/dashboard/funnels/:type/:id',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        params: FunnelParamsSchema,
        summary: 'A mailing’s funnel',
        description: funnelText,
        response: withErrors({ 200: FunnelSchema }, [404]),
      },
    },
    async (request) => {
      const { shop_id: shopId, type } = request.params;
      const id = funnelId(request.params.id);
      return toFunnelBody(type, id, await dashboards.funnel(shopId, type, id));
    },
  );

  app.get(
    '/shops/:shop_id/dashboard/funnels/:type/:id.csv',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        params: FunnelParamsSchema,
        summary: 'A mailing’s funnel, as CSV',
        description: `${funnelText} One row per channel, then a \`total\` row.`,
        produces: ['text/csv'],
        response: withErrors({ 200: CSV_RESPONSE }, [404]),
      },
    },
    async (request, reply) => {
      const { shop_id: shopId, type } = request.params;
      const id = funnelId(request.params.id);
      const funnel = await dashboards.funnel(shopId, type, id);
      return reply
        .type(CSV_CONTENT_TYPE)
        .header('content-disposition', `attachment; filename="funnel-${type}-${id}.csv"`)
        .header('cache-control', 'no-store')
        .send(funnelCsv(funnel));
    },
  );

  done();
};

/** A funnel's id: a positive integer; anything else is an unknown mailing (404), as a malformed shop id. */
function funnelId(text: string): number {
  const id = /^[1-9][0-9]{0,15}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(id)) throw new AppError('NOT_FOUND', 'Mailing not found.');
  return id;
}

const units = (minor: number) => minor / 100;

function toDashboardBody(shopId: string, d: Dashboard): DashboardBody {
  const money = <T extends { revenue: number; bonusesIssued: number; bonusesSpent: number; attributedRevenue: number }>(f: T) => ({
    revenue: units(f.revenue),
    bonuses_issued: units(f.bonusesIssued),
    bonuses_spent: units(f.bonusesSpent),
    attributed_revenue: units(f.attributedRevenue),
  });
  const common = (f: Dashboard['totals']) => ({
    events: f.events,
    events_total: f.eventsTotal,
    active_customers: f.activeCustomers,
    orders: f.orders,
    new_members: f.newMembers,
    attributed_purchases: f.attributedPurchases,
    ...money(f),
  });
  return {
    shop_id: shopId,
    from: d.from,
    to: d.to,
    timezone: d.timezone,
    days: d.days.map((day) => ({ date: day.date, ...common(day), messages: day.messages })),
    totals: {
      ...common(d.totals),
      messages: Object.fromEntries(
        Object.entries(d.totals.messages).map(([channel, c]) => [
          channel,
          { ...c, open_rate: rate(c.opened, c.sent), click_rate: rate(c.clicked, c.sent) },
        ]),
      ),
    },
    liabilities: {
      outstanding: units(d.liabilities.outstanding),
      pending: units(d.liabilities.pending),
      expiring: units(d.liabilities.expiring),
      members: d.liabilities.members,
    },
  };
}

function toFunnelBody(type: FunnelType, id: number, f: Funnel): FunnelBody {
  return { type, id, ...f, revenue: units(f.revenue), channels: [...f.channels] };
}
