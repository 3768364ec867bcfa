import { performance } from 'node:perf_hooks';
import type { Template } from 'liquidjs';
import type { Clock } from '../../clock.js';
import type { RenderConfig } from '../../config.js';
import type { ChannelTemplates, MailingTemplates } from './domain/mailing.js';
import { RenderBudget } from './domain/render-budget.js';
import { RenderPool, type Diagnosed, type RenderTask } from './render-pool.js';
import {
  isMjml,
  RenderTimeExceeded,
  TemplateEngine,
  type ChannelFields,
  type MjmlProblem,
  type ParsedField,
  type RenderChannel,
  type RenderedMessage,
  type TemplateProblem,
} from './template-engine.js';

export type { MjmlProblem, RenderedEmail, RenderedMessage, RenderedPush, TemplateProblem } from './template-engine.js';
export { FieldRenderError, located, MAX_OUTPUT_CHARS } from './template-engine.js';

/**
 * Rendering of mailing templates under limits (docs/messaging-templates.md,
 * "Rendering limits"): what one render may take (`limitMs`), and what all of a shop's
 * renders may take in this thread (`budgetMsPerSecond`, domain/render-budget.ts), so that
 * a heavy template holds neither the requests' thread nor the deliveries of other shops.
 *
 * Where a render runs: a delivery's template renders here, inline, cut off at
 * INLINE_LIMIT_MS (that message then renders again in the render thread), until it was
 * slow (over SLOW_MS, or cut off) SLOW_IN_A_ROW times in a row; from then on it renders in
 * the render thread (render-pool.ts), up to `limitMs`, and comes back here once a render
 * there took at most SLOW_MS. Nearly every template renders in tens of microseconds, less
 * than the hop to another thread and back costs the sending thread (docs/performance.md,
 * "bench:render"), so deliveries keep them here. The preview, on the requests' thread,
 * always renders in the render thread.
 */

/** An inline render is cut off past this, and the template goes to the render thread. */
const INLINE_LIMIT_MS = 10;
/** An inline render that took longer than this was slow. */
const SLOW_MS = 2;
/**
 * Slow inline renders in a row after which a template renders in the render thread. Not
 * the first: a thread's first renders run code not yet compiled, and a garbage collection
 * or another program's turn on the core may land in any render, so one slow render of a
 * cheap template says little.
 */
const SLOW_IN_A_ROW = 3;
/** Longer sources are never parsed nor rendered in this thread. */
const INLINE_SOURCE_MAX = 128 * 1024;
/** What in a template's text may reach the scope's `profile` (readsProfile). */
const PROFILE_REACH = /profile|\[/;

/** The shop's render time is spent for now; `waitMs` until it may render again. */
export class RenderBudgetSpent extends Error {
  override readonly name = 'RenderBudgetSpent';
  constructor(readonly waitMs: number) {
    super(`The shop's templates have used their render time for now; try again in ${Math.ceil(waitMs / 1000)} s.`);
  }
}

export class TemplateRenderer {
  /** This thread's engines, which stop Liquid at the inline limit. */
  private readonly engine: TemplateEngine;
  private readonly pool: RenderPool;
  private readonly budget: RenderBudget;
  /** Parsed templates by their slow inline renders in a row; SLOW_IN_A_ROW or more: they render in the render thread. */
  private readonly slow = new WeakMap<Template[], number>();
  private readonly profileReaders = new WeakMap<ChannelTemplates, boolean>();

  constructor(
    private readonly deps: {
      readonly clock: Clock;
      readonly limits: RenderConfig;
      /** How long an inline render may take before it is cut off (INLINE_LIMIT_MS unless a test needs a machine's pauses ignored). */
      readonly inlineLimitMs?: number;
    },
  ) {
    this.engine = new TemplateEngine(deps.inlineLimitMs ?? INLINE_LIMIT_MS);
    this.budget = new RenderBudget(deps.limits.budgetMsPerSecond);
    this.pool = new RenderPool(deps.limits.limitMs);
  }

  /** The first template of a mailing that does not parse, with the engine's words (they name line and column). */
  check(templates: MailingTemplates): TemplateProblem | undefined {
    return this.engine.check(templates);
  }

  /**
   * Whether rendering the set's `channel` templates may read the recipient (the scope's
   * `profile`, templateScope): a delivery whose templates cannot skips reading the
   * profile and its attributes. Conservative by text, not by the engine's analysis, which
   * does not see a computed name (`{% assign k = "profile" %}{{ [k] }}`): a template reads
   * the profile if it names it or indexes with brackets (it cannot pull in another file).
   */
  readsProfile(set: ChannelTemplates, channel: RenderChannel): boolean {
    const fields = set[channel] as ChannelFields | undefined;
    if (!fields) return false;
    let reads = this.profileReaders.get(fields);
    if (reads === undefined) {
      reads = Object.values(fields).some((source) => typeof source === 'string' && PROFILE_REACH.test(source));
      this.profileReaders.set(fields, reads);
    }
    return reads;
  }

  /**
   * Renders one channel's template for a shop's message; undefined when the set has none
   * for it. Throws RenderBudgetSpent when the shop's render time is spent for now, and an
   * error in words when the template does not render (past the limit among them).
   */
  async render<C extends RenderChannel>(
    shopId: string,
    set: ChannelTemplates,
    channel: C,
    scope: Readonly<Record<string, unknown>>,
  ): Promise<RenderedMessage[C] | undefined> {
    const fields = set[channel] as ChannelFields | undefined;
    if (!fields) return undefined;
    const parsed = this.parsedHere(channel, fields);
    const inline = parsed !== undefined && !parsed.some(({ templates }) => (this.slow.get(templates) ?? 0) >= SLOW_IN_A_ROW);
    const out = inline ? this.renderInline(shopId, channel, scope, parsed) : undefined;
    if (!out) {
      const task: RenderTask = { kind: 'channel', channel, set: { [channel]: fields }, scope };
      // A template that renders fast in the render thread comes back here: its slow renders were the machine's, not its own.
      return this.offload(shopId, task, (ms) => {
        if (parsed && ms <= SLOW_MS) for (const { templates } of parsed) this.slow.delete(templates);
      });
    }
    if (channel !== 'email') return out as RenderedMessage[C];
    const html = out.html ?? '';
    if (!isMjml(html)) return this.engine.email(out, html) as RenderedMessage[C];
    let compiled = this.engine.cachedMjml(html);
    if (compiled === undefined) {
      compiled = await this.offload<string>(shopId, { kind: 'mjml', source: html });
      this.engine.keepMjml(html, compiled);
    }
    return this.engine.email(out, compiled) as RenderedMessage[C];
  }

  /** Every channel of a set, for the admin preview: in the render thread, whatever the template. */
  async renderAll(shopId: string, set: ChannelTemplates, scope: Readonly<Record<string, unknown>>): Promise<RenderedMessage> {
    const out: RenderedMessage = {};
    for (const channel of Object.keys(set) as RenderChannel[]) {
      const fields = set[channel] as ChannelFields | undefined;
      if (!fields) continue;
      (out as Record<string, unknown>)[channel] = await this.offload(shopId, {
        kind: 'channel',
        channel,
        set: { [channel]: fields },
        scope,
      });
    }
    return out;
  }

  /**
   * One channel of a set rendered for the template editor's preview: in the render thread,
   * with MJML's validation errors. Throws as render does (a FieldRenderError names the field).
   */
  async preview(
    shopId: string,
    set: ChannelTemplates,
    channel: RenderChannel,
    scope: Readonly<Record<string, unknown>>,
  ): Promise<{ rendered: Record<string, string> | undefined; mjmlProblems: readonly MjmlProblem[] }> {
    const fields = set[channel] as ChannelFields | undefined;
    if (!fields) return { rendered: undefined, mjmlProblems: [] };
    const task: RenderTask = { kind: 'channel', channel, set: { [channel]: fields }, scope, diagnose: true };
    const { rendered, mjmlProblems } = await this.offload<Diagnosed>(shopId, task);
    return { rendered: rendered as Record<string, string>, mjmlProblems };
  }

  /** Every template of a set that does not parse, each with its path, line and column. */
  problems(templates: MailingTemplates): TemplateProblem[] {
    return this.engine.problems(templates);
  }

  /** Ends the render thread. */
  close(): Promise<void> {
    return this.pool.close();
  }

  /** The channel's parsed fields, unless one is too long to parse here (it renders in the render thread). */
  private parsedHere(channel: RenderChannel, fields: ChannelFields): ParsedField[] | undefined {
    for (const source of Object.values(fields)) if (typeof source === 'string' && source.length > INLINE_SOURCE_MAX) return undefined;
    return this.engine.parseFields(channel, fields);
  }

  /** The channel's Liquid rendered here; undefined when it was cut off (it renders again in the render thread). */
  private renderInline(
    shopId: string,
    channel: RenderChannel,
    scope: Readonly<Record<string, unknown>>,
    parsed: readonly ParsedField[],
  ): Record<string, string> | undefined {
    this.admit(shopId);
    const started = performance.now();
    let cutOff = false;
    try {
      return this.engine.renderParsed(channel, parsed, scope);
    } catch (error) {
      if (!(error instanceof RenderTimeExceeded)) throw error;
      cutOff = true;
      return undefined;
    } finally {
      const took = performance.now() - started;
      this.budget.charge(shopId, took, this.deps.clock.now());
      for (const { templates } of parsed) this.judge(templates, cutOff || took > SLOW_MS);
    }
  }

  /** Counts a slow render against a template, or clears its count after a fast one. */
  private judge(templates: Template[], slow: boolean): void {
    const count = this.slow.get(templates);
    if (slow) this.slow.set(templates, (count ?? 0) + 1);
    else if (count !== undefined) this.slow.delete(templates);
  }

  private offload<T>(shopId: string, task: RenderTask, took?: (ms: number) => void): Promise<T> {
    return this.pool.run(task, {
      admit: () => this.admit(shopId),
      spent: (ms) => {
        this.budget.charge(shopId, ms, this.deps.clock.now());
        took?.(ms);
      },
    }) as Promise<T>;
  }

  private admit(shopId: string): void {
    const wait = this.budget.admit(shopId, this.deps.clock.now());
    if (wait > 0) throw new RenderBudgetSpent(wait);
  }
}

/** The Liquid scope of a message: variables by name and under `variables`, the recipient under `profile`. */
export function templateScope(
  variables: Readonly<Record<string, unknown>>,
  profile: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  return { ...variables, variables, profile };
}
