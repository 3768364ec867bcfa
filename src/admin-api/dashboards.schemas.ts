import { Type, type Static } from '@sinclair/typebox';
import { ShopIdParam } from './common.schemas.js';

/** GET /admin/v1/shops/{shop_id}/dashboard and …/dashboard/funnels/{type}/{id} (docs/dashboards.md). */

const DateParam = (what: string) =>
  Type.String({
    maxLength: 10,
    description: `${what}: a date as YYYY-MM-DD, in the shop's time zone (inclusive).`,
    examples: ['2026-12-01'],
  });

export const DashboardQuerySchema = Type.Object(
  {
    from: DateParam('The first day'),
    to: DateParam('The last day; at most 366 days from `from`'),
  },
  { additionalProperties: false },
);
export type DashboardQuery = Static<typeof DashboardQuerySchema>;

const Count = (description: string) => Type.Integer({ minimum: 0, description });
const Amount = (description: string) => Type.Number({ description: `${description}, in currency units.` });

const ChannelFiguresSchema = Type.Object({
  sent: Count('Deliveries sent.'),
  opened: Count('Deliveries first opened (a click counts as an open).'),
  clicked: Count('Deliveries first clicked.'),
});

const ChannelTotalsSchema = Type.Object({
  sent: Count('Deliveries sent.'),
  opened: Count('Deliveries first opened.'),
  clicked: Count('Deliveries first clicked.'),
  open_rate: Type.Number({ description: 'opened / sent over the period (0 when nothing was sent), 4 decimals.' }),
  click_rate: Type.Number({ description: 'clicked / sent over the period, 4 decimals.' }),
});

const figures = {
  events: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
    description: 'Stored events by type: the push events by name, custom events by their code.',
  }),
  events_total: Count('Every stored event.'),
  active_customers: Count('Customers (profiles) with at least one event that day; in totals, the sum over the days.'),
  orders: Count('Orders tracked from purchase events (a repeated order_id is one order).'),
  revenue: Amount('Their value: order_price when sent, else the items’ sum'),
  new_members: Count('Customers who joined the loyalty programme.'),
  bonuses_issued: Amount('Bonuses credited (pending or confirmed)'),
  bonuses_spent: Amount('Bonuses spent: debits and order holds when captured'),
  attributed_purchases: Count('Messages a purchase was attributed to (a recommended_code naming one, or the last click in the window).'),
  attributed_revenue: Amount('The value of those purchases'),
};

export const DashboardDaySchema = Type.Object({
  date: Type.String({ description: 'The day, YYYY-MM-DD, in the shop’s time zone.' }),
  ...figures,
  messages: Type.Record(Type.String(), ChannelFiguresSchema, { description: 'By channel (email, sms, mobile_push …).' }),
});

export const DashboardSchema = Type.Object({
  shop_id: ShopIdParam,
  from: Type.String(),
  to: Type.String(),
  timezone: Type.String({ description: 'The shop’s time zone the days are counted in.' }),
  days: Type.Array(DashboardDaySchema, { description: 'Every day of the period in order; a day with nothing is zeros.' }),
  totals: Type.Object({ ...figures, messages: Type.Record(Type.String(), ChannelTotalsSchema) }, { description: 'Sums over the period.' }),
  liabilities: Type.Object(
    {
      outstanding: Amount('Confirmed, unexpired bonuses not yet spent or held, now'),
      pending: Amount('Bonuses on their way (pending), now'),
      expiring: Amount('Of the outstanding, what expires within 30 days'),
      members: Count('Loyalty members now.'),
    },
    { description: 'The loyalty programme’s liabilities now (not per day).' },
  ),
});
export type DashboardBody = Static<typeof DashboardSchema>;

export const FunnelParamsSchema = Type.Object({
  shop_id: ShopIdParam,
  type: Type.Union([Type.Literal('transactional'), Type.Literal('chain'), Type.Literal('bulk')], {
    description: 'transactional: a mailing of /transact; chain; bulk: a bulk mailing (campaign).',
  }),
  id: Type.String({ maxLength: 20, description: 'The mailing’s, chain’s or bulk mailing’s numeric id.' }),
});
export type FunnelParams = Static<typeof FunnelParamsSchema>;

export const FunnelSchema = Type.Object({
  type: Type.String(),
  id: Type.Integer(),
  sent: Count('Deliveries sent (each channel of a message is a delivery).'),
  delivered: Count('Mobile push: reported delivered by the SDK; other channels: sent less hard bounces.'),
  opened: Count('Deliveries opened.'),
  clicked: Count('Deliveries clicked.'),
  purchased: Count('Messages a purchase was attributed to.'),
  revenue: Amount('The value of those purchases'),
  channels: Type.Array(
    Type.Object({
      channel: Type.String(),
      sent: Count('Sent.'),
      delivered: Count('Delivered.'),
      opened: Count('Opened.'),
      clicked: Count('Clicked.'),
    }),
    { description: 'The same steps per channel.' },
  ),
});
export type FunnelBody = Static<typeof FunnelSchema>;
