import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { AudienceService } from '../audience/index.js';
import type { IdentityService } from '../identity/index.js';
import type { ShopsService } from '../shops/index.js';
import type { ChannelsService } from './channels.service.js';
import { chooseLocale, templatesFor, type MailingTemplates, type TemplateChannel } from './domain/mailing.js';
import { hasLineBreak, type DeliveryPlan } from './domain/recipients.js';
import { checkVariables } from './domain/variables.js';
import type { MessageWriter } from './message-writer.js';
import * as repo from './messaging.repo.js';
import { localeOf, readProfileScope } from './profile-scope.js';
import { FieldRenderError, located, RenderBudgetSpent, templateScope, type TemplateRenderer } from './render.js';
import * as templatesRepo from './templates.repo.js';
import { TRANSACTIONAL_LEAD_MS } from './transact.service.js';

/**
 * The profile a template previews with when no customer is picked (docs/messaging-templates.md,
 * "Preview and test send"): the identifiers and a few common fields, all made up.
 */
export const SAMPLE_PROFILE: Readonly<Record<string, unknown>> = Object.freeze({
  email: 'jane.doe@example.com',
  phone: '15550100000',
  external_id: 'sample-1',
  loyalty_id: null,
  telegram_id: null,
  first_name: 'Jane',
  last_name: 'Doe',
  locale: 'en',
});

/** Test sends per shop in a window of an hour. */
export const TEST_SENDS_PER_HOUR = 30;
const HOUR_MS = 60 * 60 * 1000;
/** The `campaign_id` and template reference of a test of a template saved nowhere. */
const TEST_CAMPAIGN_ID = 0;
const TEST_TEMPLATE_REF = 'template test';

export interface TemplateError {
  /** The template's field, as the request spells it: `email.html`, `locales.de.sms.body`. */
  readonly field: string;
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
}

export interface TemplateInput {
  readonly channel: TemplateChannel;
  readonly template: MailingTemplates;
  readonly profileId?: number;
  readonly variables?: Readonly<Record<string, unknown>>;
  readonly locale?: string;
}

export interface TemplatePreview {
  readonly channel: TemplateChannel;
  /** The locale variant rendered; null for the default templates. */
  readonly locale: string | null;
  /** The channel's fields rendered; null when a template of it does not parse or render. */
  readonly rendered: Readonly<Record<string, string>> | null;
  readonly errors: readonly TemplateError[];
  readonly profile: { readonly source: 'customer' | 'sample'; readonly id: number | null };
}

/** The channels whose address a person types; the others are a profile's (push tokens, subscriptions, passes). */
const TYPED: Partial<Record<TemplateChannel, { readonly pattern: RegExp; readonly what: string }>> = {
  email: { pattern: /^[^\s@<>,;"]+@[^\s@<>,;"]+$/, what: 'an email address' },
  sms: { pattern: /^\+?[0-9]{5,15}$/, what: 'a phone number' },
  whatsapp: { pattern: /^\+?[0-9]{5,15}$/, what: 'a phone number' },
  max: { pattern: /^\+?[0-9]{5,15}$/, what: 'a phone number' },
  telegram: { pattern: /^-?[0-9]{1,20}$/, what: 'a Telegram chat id' },
};

/**
 * The template editor's server side (docs/messaging-templates.md, "Preview and test send"):
 * any template of any kind (a transactional mailing's, a chain step's, a bulk mailing's),
 * saved or not, previewed with a real customer or the sample profile, its errors located
 * at their line; and sent as a test through the shop's real channel. Renders through the
 * one renderer the deliveries use, under the same limits.
 */
export class TemplatesService {
  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      readonly shops: Pick<ShopsService, 'requireShop'>;
      readonly identity: Pick<IdentityService, 'getProfileOnly'>;
      readonly audience: Pick<AudienceService, 'getLiveCustomerAttributes'>;
      readonly channels: Pick<ChannelsService, 'configuredChannels'>;
      readonly renderer: TemplateRenderer;
      readonly writer: Pick<MessageWriter, 'plan' | 'write'>;
    },
  ) {}

  async preview(shopId: string, input: TemplateInput): Promise<TemplatePreview> {
    const { scope, profile } = await this.prepare(shopId, input);
    const { channel, template } = input;
    const tag = chooseLocale(Object.keys(template.locales ?? {}), input.locale ?? localeOf(scope));
    const prefix = tag !== undefined && template.locales?.[tag]?.[channel] !== undefined ? `locales.${tag}.` : '';
    const errors: TemplateError[] = this.deps.renderer
      .problems(template)
      .map((p) => ({ field: p.path, message: p.message, ...(p.line !== undefined && { line: p.line, column: p.column }) }));
    const base = { channel, locale: prefix === '' ? null : (tag as string), profile };
    if (errors.some((e) => e.field.startsWith(`${prefix}${channel}.`))) return { ...base, rendered: null, errors };
    const set = templatesFor(template, tag);
    try {
      const { rendered, mjmlProblems } = await this.deps.renderer.preview(
        shopId,
        set,
        channel,
        templateScope(input.variables ?? {}, scope),
      );
      for (const p of mjmlProblems) errors.push({ field: `${prefix}email.html`, line: p.line, message: `MJML: ${p.message}` });
      return { ...base, rendered: rendered ?? null, errors };
    } catch (error) {
      if (error instanceof RenderBudgetSpent) {
        throw new AppError('RATE_LIMITED', error.message, { retryAfterSeconds: Math.ceil(error.waitMs / 1000) });
      }
      errors.push(renderError(error, channel, prefix));
      return { ...base, rendered: null, errors };
    }
  }

  /**
   * Sends the template as a test to `to` (the channel's address: an email address, a phone,
   * a Telegram chat id) or, for a channel whose addresses are a profile's (push, wallet), to
   * the addresses of `profileId`. The message is a transactional test: in the delivery log
   * with `test`, out of the history and statistics, without tracking links; it carries its
   * templates and the profile they render with. At most TEST_SENDS_PER_HOUR a shop.
   */
  async testSend(shopId: string, input: TemplateInput & { readonly to?: string }): Promise<{ code: string }> {
    const { scope } = await this.prepare(shopId, input);
    const { channel, template } = input;
    const problem = this.deps.renderer.problems(template)[0];
    if (problem) {
      const at = problem.line === undefined ? '' : `, line:${problem.line}, col:${problem.column}`;
      throw new AppError('VALIDATION_FAILED', `Template ${problem.path} does not parse: ${problem.message}${at}`, {
        field: `template.${problem.path}`,
      });
    }
    if (!(await this.deps.channels.configuredChannels(shopId)).has(channel)) {
      throw new AppError('VALIDATION_FAILED', `Channel ${channel} is not configured for the shop.`, { field: 'channel' });
    }
    const db = this.deps.db.db;
    const plan = await this.planTest(shopId, input);
    const now = this.deps.clock.now();
    const code = await db.transaction().execute(async (trx) => {
      if (!(await templatesRepo.takeTestSend(trx, shopId, now, HOUR_MS, TEST_SENDS_PER_HOUR))) return undefined;
      const written = await this.deps.writer.write(
        trx,
        {
          shopId,
          profileId: input.profileId ?? 0,
          type: 'transactional',
          campaignId: TEST_CAMPAIGN_ID,
          templateRef: TEST_TEMPLATE_REF,
          variables: input.variables ?? {},
          runAt: now - TRANSACTIONAL_LEAD_MS,
          now,
          test: true,
        },
        plan,
      );
      const own = {
        shop_id: shopId,
        code: written.code,
        templates: JSON.stringify(template),
        profile: JSON.stringify(scope),
        created_at: now,
      };
      await templatesRepo.insertMessageTemplates(trx, own);
      return written.code;
    });
    if (code === undefined) {
      const start = (await templatesRepo.testWindowStart(db, shopId)) ?? now;
      const wait = Math.max(1, Math.ceil((start + HOUR_MS - now) / 1000));
      throw new AppError(
        'RATE_LIMITED',
        `The shop has sent its ${TEST_SENDS_PER_HOUR} test messages of the hour; try again in ${Math.ceil(wait / 60)} min.`,
        { retryAfterSeconds: wait },
      );
    }
    await this.deps.db.durable();
    return { code };
  }

  /** The shop, the variables and the channel checked; the profile the templates read (a customer's, else the sample). */
  private async prepare(
    shopId: string,
    input: TemplateInput,
  ): Promise<{ scope: Record<string, unknown>; profile: TemplatePreview['profile'] }> {
    await this.deps.shops.requireShop(shopId);
    const check = checkVariables(input.variables ?? {});
    if (!check.ok) throw new AppError('VALIDATION_FAILED', check.message, { field: 'variables' });
    const { channel, template } = input;
    const variants = Object.values(template.locales ?? {});
    if (template[channel] === undefined && !variants.some((v) => v[channel] !== undefined)) {
      throw new AppError('VALIDATION_FAILED', `Field \`template.${channel}\` is required: the template has none for the channel.`, {
        field: `template.${channel}`,
      });
    }
    if (input.profileId === undefined) return { scope: { ...SAMPLE_PROFILE }, profile: { source: 'sample', id: null } };
    const profile = await readProfileScope(this.deps, shopId, input.profileId);
    if (!profile) throw new AppError('NOT_FOUND', 'Customer is not found.', { field: 'profile_id' });
    return { scope: profile, profile: { source: 'customer', id: input.profileId } };
  }

  /** Where a test goes: the typed address, or the profile's addresses on a channel nobody types. */
  private async planTest(shopId: string, input: TemplateInput & { readonly to?: string }): Promise<DeliveryPlan> {
    const { channel, to } = input;
    const typed = TYPED[channel];
    if (!typed) {
      if (input.profileId === undefined) {
        throw new AppError('VALIDATION_FAILED', `A test on ${channel} goes to a customer's devices: \`profile_id\` is required.`, {
          field: 'profile_id',
        });
      }
      const plan = await this.deps.writer.plan(this.deps.db.db, shopId, input.profileId, 'transactional', [channel]);
      if (plan.send.length === 0) {
        throw new AppError('VALIDATION_FAILED', `Customer ${input.profileId} has no ${channel} address to send a test to.`, {
          field: 'profile_id',
        });
      }
      return plan;
    }
    if (to === undefined || hasLineBreak(to) || !typed.pattern.test(to)) {
      throw new AppError('VALIDATION_FAILED', `Field \`to\` must be ${typed.what} for a test on ${channel}.`, { field: 'to' });
    }
    if ((await repo.deadAmong(this.deps.db.db, shopId, [to])).has(`${channel}:${to}`)) {
      throw new AppError('VALIDATION_FAILED', `Field \`to\`: ${to} is on the shop's list of dead addresses.`, { field: 'to' });
    }
    return { send: [{ channel, address: to, platform: null }], unconfigured: [], unsubscribed: [] };
  }
}

/** A render's failure as an error of the field it names. */
function renderError(error: unknown, channel: TemplateChannel, prefix: string): TemplateError {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof FieldRenderError) return { field: `${prefix}${channel}.${error.field}`, ...located(message) };
  // A time limit's words name the field ("sms.body takes more than …", from the render thread as a plain Error).
  const field = /^\w+\.(\w+)(?: \(MJML\))? takes more than/.exec(message)?.[1];
  return { field: field === undefined ? `${prefix}${channel}` : `${prefix}${channel}.${field}`, message };
}
