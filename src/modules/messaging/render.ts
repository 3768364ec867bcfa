import { createRequire } from 'node:module';
import { Liquid, Tag, type TagToken, type Template, type TopLevelToken } from 'liquidjs';
import { htmlToText } from './domain/html-text.js';
import { templateStrings, type ChannelTemplates, type MailingTemplates } from './domain/mailing.js';

/**
 * Liquid (and MJML) rendering of mailing templates (docs/messaging.md, "Templates").
 * Two engines: the HTML one escapes every output (`| raw` opts out, for markup the shop
 * trusts); the text one (subjects, text parts, SMS, push, chats) escapes nothing, since
 * an entity in an SMS is a bug. Filters must exist (strictFilters), so a typo is refused
 * when the template is saved rather than printed to customers. The limits bound what one
 * template may cost: a loop over a huge range cannot hold a delivery worker.
 *
 * Templates read no files: liquidjs's `include`, `render` and `layout` read any file under
 * the working directory (the secret key among them), and a mailing has no partials of its
 * own to offer in their place. The three tags are refused when a template is parsed, so a
 * template naming them is refused when saved, and one stored before renders to an error;
 * and the engines' file system is an empty map, so no other way in reaches the disk.
 */

const LIMITS = { parseLimit: 1_000_000, renderLimit: 2_000, memoryLimit: 20_000_000 } as const;
/** The tags of liquidjs that read a file. */
const FILE_TAGS = ['include', 'render', 'layout'] as const;
const PARSED_CACHE_SIZE = 1_000;
/** Compiled MJML kept (compileMjml), oldest out first. */
const MJML_CACHE_SIZE = 64;
/** What in a template's text may reach the scope's `profile` (readsProfile). */
const PROFILE_REACH = /profile|\[/;

type Mjml = (input: string, options?: { validationLevel?: 'soft' | 'strict' | 'skip' }) => Promise<{ html: string }>;
let mjmlLoaded: Mjml | undefined;
/**
 * mjml, loaded at its first use: it weighs some 48 MB of RSS (11 MB of heap) once loaded,
 * which a server whose templates are plain HTML never needs. It ships CommonJS without
 * types; its one function is typed here.
 */
function mjml2html(input: string, options: { validationLevel: 'soft' | 'strict' | 'skip' }): Promise<{ html: string }> {
  mjmlLoaded ??= createRequire(import.meta.url)('mjml') as Mjml;
  return mjmlLoaded(input, options);
}

export interface RenderedEmail {
  readonly subject: string;
  readonly html: string;
  readonly text: string;
}
export interface RenderedPush {
  readonly title: string;
  readonly body: string;
  readonly url?: string;
  readonly icon?: string;
  readonly picture?: string;
}
export interface RenderedMessage {
  email?: RenderedEmail;
  sms?: { readonly body: string };
  mobile_push?: RenderedPush;
  web_push?: RenderedPush;
  telegram?: { readonly text: string };
  whatsapp?: { readonly text: string };
  max?: { readonly text: string };
  wallet?: { readonly text: string };
}

export type TemplateProblem = { readonly path: string; readonly message: string };

export class TemplateRenderer {
  private readonly html = noFiles(new Liquid({ outputEscape: 'escape', strictFilters: true, templates: {}, ...LIMITS }));
  private readonly text = noFiles(new Liquid({ strictFilters: true, templates: {}, ...LIMITS }));
  private readonly parsed = new Map<string, Template[]>();
  private readonly mjml = new Map<string, string>();
  private readonly profileReaders = new WeakMap<ChannelTemplates, boolean>();

  /** The first template of a mailing that does not parse, with the engine's words (they name line and column). */
  check(templates: MailingTemplates): TemplateProblem | undefined {
    for (const { path, source, html } of templateStrings(templates)) {
      try {
        (html ? this.html : this.text).parse(source);
      } catch (error) {
        return { path, message: firstLine(error) };
      }
    }
    return undefined;
  }

  /**
   * Whether rendering the set's `channel` templates may read the recipient (the scope's
   * `profile`, templateScope): a delivery whose templates cannot skips reading the
   * profile and its attributes. Conservative by text, not by the engine's analysis, which
   * does not see a computed name (`{% assign k = "profile" %}{{ [k] }}`): a template reads
   * the profile if it names it or indexes with brackets (it cannot pull in another file).
   */
  readsProfile(set: ChannelTemplates, channel: keyof RenderedMessage): boolean {
    const fields = set[channel] as Readonly<Record<string, string | undefined>> | undefined;
    if (!fields) return false;
    let reads = this.profileReaders.get(fields);
    if (reads === undefined) {
      reads = Object.values(fields).some((source) => typeof source === 'string' && PROFILE_REACH.test(source));
      this.profileReaders.set(fields, reads);
    }
    return reads;
  }

  /** Renders one channel's template; undefined when the set has none for it. */
  async render<C extends keyof RenderedMessage>(
    set: ChannelTemplates,
    channel: C,
    scope: Readonly<Record<string, unknown>>,
  ): Promise<RenderedMessage[C] | undefined> {
    const fields = set[channel] as Readonly<Record<string, string | undefined>> | undefined;
    if (!fields) return undefined;
    const out: Record<string, string> = {};
    for (const [field, source] of Object.entries(fields)) {
      if (typeof source !== 'string') continue;
      const isHtml = channel === 'email' && field === 'html';
      out[field] = this.renderString(isHtml, source, scope);
    }
    if (channel === 'email') {
      const html = isMjml(out.html ?? '') ? await this.compileMjml(out.html ?? '') : (out.html ?? '');
      return { subject: out.subject ?? '', html, text: out.text ?? htmlToText(html) } as RenderedMessage[C];
    }
    return out as RenderedMessage[C];
  }

  /** Every channel of a set, for the admin preview. */
  async renderAll(set: ChannelTemplates, scope: Readonly<Record<string, unknown>>): Promise<RenderedMessage> {
    const out: RenderedMessage = {};
    for (const channel of Object.keys(set) as Array<keyof RenderedMessage>) {
      const rendered = await this.render(set, channel, scope);
      if (rendered) (out as Record<string, unknown>)[channel] = rendered;
    }
    return out;
  }

  /**
   * MJML to HTML, kept for the last few distinct inputs: compiling takes tens of
   * milliseconds, and a mailing whose MJML part names no per-message variable (a bulk
   * mailing's, most transactional layouts with the variables in the text parts) compiles
   * to the same HTML every time.
   */
  private async compileMjml(source: string): Promise<string> {
    const cached = this.mjml.get(source);
    if (cached !== undefined) return cached;
    const { html } = await mjml2html(source, { validationLevel: 'soft' });
    if (this.mjml.size >= MJML_CACHE_SIZE) this.mjml.delete(this.mjml.keys().next().value as string);
    this.mjml.set(source, html);
    return html;
  }

  private renderString(isHtml: boolean, source: string, scope: Readonly<Record<string, unknown>>): string {
    const engine = isHtml ? this.html : this.text;
    const key = `${isHtml ? 'h' : 't'}:${source}`;
    let templates = this.parsed.get(key);
    if (!templates) {
      templates = engine.parse(source);
      // A bounded cache of parsed templates: oldest out first.
      if (this.parsed.size >= PARSED_CACHE_SIZE) this.parsed.delete(this.parsed.keys().next().value as string);
      this.parsed.set(key, templates);
    }
    // Synchronously: no filter or tag of ours waits on anything, and the async walk costs a promise per node.
    return engine.renderSync(templates, scope) as string;
  }
}

/** The Liquid scope of a message: variables by name and under `variables`, the recipient under `profile`. */
export function templateScope(
  variables: Readonly<Record<string, unknown>>,
  profile: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  return { ...variables, variables, profile };
}

/** A tag that reads a file, refused when parsed: the error names it, with line and column. */
class FileTagRefused extends Tag {
  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid) {
    super(token, remainTokens, liquid);
    throw new Error(`the ${token.name} tag is not available: templates cannot read files`);
  }

  *render(): Generator<unknown, void, unknown> {
    // Never reached: the constructor refuses the tag.
  }
}

function noFiles(engine: Liquid): Liquid {
  for (const tag of FILE_TAGS) engine.registerTag(tag, FileTagRefused);
  return engine;
}

function isMjml(html: string): boolean {
  return /^\s*<mjml[\s>]/i.test(html);
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}
