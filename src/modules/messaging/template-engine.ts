import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { Liquid, Tag, type TagToken, type Template, type TopLevelToken } from 'liquidjs';
import { htmlToText } from './domain/html-text.js';
import { templateStrings, type ChannelTemplates, type MailingTemplates } from './domain/mailing.js';

/**
 * The Liquid (and MJML) engines of mailing templates (docs/messaging-templates.md), as
 * each thread that renders holds them: the one that sends (render.ts) and its render
 * thread (render-thread-entry.ts). Two engines: the HTML one escapes every output (`| raw`
 * opts out, for markup the shop trusts); the text one (subjects, text parts, SMS, push,
 * chats) escapes nothing, since an entity in an SMS is a bug. Filters must exist
 * (strictFilters), so a typo is refused when the template is saved rather than printed
 * to customers. The parse and memory limits bound what one template may hold; the time
 * a render may take is each thread's own (render.ts: short in the sending thread, the
 * configured limit in the render thread).
 *
 * Templates read no files: liquidjs's `include`, `render` and `layout` read any file under
 * the working directory (the secret key among them), and a mailing has no partials of its
 * own to offer in their place. The three tags are refused when a template is parsed, so a
 * template naming them is refused when saved, and one stored before renders to an error;
 * and the engines' file system is an empty map, so no other way in reaches the disk.
 */

const LIMITS = { parseLimit: 1_000_000, memoryLimit: 20_000_000 } as const;
/** The tags of liquidjs that read a file. */
const FILE_TAGS = ['include', 'render', 'layout'] as const;
/** Parsed templates kept per engine. */
const PARSED_CACHE_SIZE = 1_000;
/** Compiled MJML kept (compileMjml), oldest out first. */
const MJML_CACHE_SIZE = 64;

type Mjml = (input: string, options?: { validationLevel?: 'soft' | 'strict' | 'skip' }) => Promise<{ html: string }>;
let mjmlLoaded: Mjml | undefined;
/**
 * mjml, loaded at its first use: it weighs some 48 MB of RSS (11 MB of heap) once loaded,
 * which a server whose templates are plain HTML never needs. It ships CommonJS without
 * types; its one function is typed here.
 */
export function loadMjml(): Mjml {
  mjmlLoaded ??= createRequire(import.meta.url)('mjml') as Mjml;
  return mjmlLoaded;
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
export type RenderChannel = keyof RenderedMessage;
/** One channel's template fields (`subject`, `html`, `body` …): Liquid sources. */
export type ChannelFields = Readonly<Record<string, string | undefined>>;

/** A field of a channel's template, parsed: `isHtml` for the engine that escapes. */
export interface ParsedField {
  readonly field: string;
  readonly isHtml: boolean;
  readonly templates: Template[];
}

export type TemplateProblem = { readonly path: string; readonly message: string };

/** A render that ran past its time: the message names the field and the limit. */
export class RenderTimeExceeded extends Error {
  override readonly name = 'RenderTimeExceeded';
}

export class TemplateEngine {
  private readonly html: Liquid;
  private readonly text: Liquid;
  private readonly parsedHtml = new Map<string, Template[]>();
  private readonly parsedText = new Map<string, Template[]>();
  private readonly mjml = new Map<string, string>();

  /** `limitMs`: the longest a channel's Liquid may take (renderParsed). */
  constructor(readonly limitMs: number) {
    // The limit is the engines' own, set once: given with each render, liquidjs would pay for it at every field.
    const options = { strictFilters: true, templates: {}, renderLimit: limitMs, ...LIMITS };
    this.html = noFiles(new Liquid({ ...options, outputEscape: 'escape' }));
    this.text = noFiles(new Liquid(options));
  }

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
   * A field's parsed template, from a bounded cache per engine (oldest out first), keyed by
   * the source itself: a source read once keeps its hash, so a lookup does not read it again.
   */
  parse(isHtml: boolean, source: string): Template[] {
    const cache = isHtml ? this.parsedHtml : this.parsedText;
    let templates = cache.get(source);
    if (!templates) {
      templates = (isHtml ? this.html : this.text).parse(source);
      if (cache.size >= PARSED_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      cache.set(source, templates);
    }
    return templates;
  }

  /** A channel's fields parsed, in order. */
  parseFields(channel: RenderChannel, fields: ChannelFields): ParsedField[] {
    const parsed: ParsedField[] = [];
    for (const [field, source] of Object.entries(fields)) {
      if (typeof source !== 'string') continue;
      const isHtml = channel === 'email' && field === 'html';
      parsed.push({ field, isHtml, templates: this.parse(isHtml, source) });
    }
    return parsed;
  }

  /** Liquid over one channel's fields; renderParsed says how. */
  renderFields(channel: RenderChannel, fields: ChannelFields, scope: Readonly<Record<string, unknown>>): Record<string, string> {
    return this.renderParsed(channel, this.parseFields(channel, fields), scope);
  }

  /**
   * Liquid over one channel's parsed fields, all within the engine's `limitMs`
   * (RenderTimeExceeded past it). Synchronously: no filter or tag of ours waits on
   * anything, and the async walk costs a promise per node.
   */
  renderParsed(channel: RenderChannel, parsed: readonly ParsedField[], scope: Readonly<Record<string, unknown>>): Record<string, string> {
    const deadline = performance.now() + this.limitMs;
    const out: Record<string, string> = {};
    for (const { field, isHtml, templates } of parsed) {
      const left = deadline - performance.now();
      try {
        if (left <= 0) throw new Error('template render limit exceeded');
        // What the fields before took is taken off this one's limit, when it is more than a trifle.
        const options = left < this.limitMs - 1 ? { renderLimit: left } : undefined;
        out[field] = (isHtml ? this.html : this.text).renderSync(templates, scope, options) as string;
      } catch (error) {
        if (error instanceof Error && error.message.startsWith('template render limit exceeded')) {
          throw new RenderTimeExceeded(`${channel}.${field} takes more than ${this.limitMs} ms to render`);
        }
        throw error;
      }
    }
    return out;
  }

  /**
   * One channel rendered in full: Liquid, then for email MJML and the text part.
   * `beforeMjml` is told when the Liquid is done and the MJML compile begins.
   */
  async renderChannel<C extends RenderChannel>(
    set: ChannelTemplates,
    channel: C,
    scope: Readonly<Record<string, unknown>>,
    beforeMjml?: () => void,
  ): Promise<RenderedMessage[C] | undefined> {
    const fields = set[channel] as ChannelFields | undefined;
    if (!fields) return undefined;
    const out = this.renderFields(channel, fields, scope);
    if (channel !== 'email') return out as RenderedMessage[C];
    const html = out.html ?? '';
    if (!isMjml(html)) return this.email(out, html) as RenderedMessage[C];
    beforeMjml?.();
    return this.email(out, await this.compileMjml(html)) as RenderedMessage[C];
  }

  /** The email of rendered fields and its final HTML: the text part derived from the HTML when the mailing has none. */
  email(out: Record<string, string>, html: string): RenderedEmail {
    return { subject: out.subject ?? '', html, text: out.text ?? htmlToText(html) };
  }

  /** The HTML of MJML compiled lately in this thread, if any (compileMjml). */
  cachedMjml(source: string): string | undefined {
    return this.mjml.get(source);
  }

  /**
   * MJML to HTML, kept for the last few distinct inputs: compiling takes tens of
   * milliseconds, and a mailing whose MJML part names no per-message variable (a bulk
   * mailing's, most transactional layouts with the variables in the text parts) compiles
   * to the same HTML every time.
   */
  async compileMjml(source: string): Promise<string> {
    const cached = this.mjml.get(source);
    if (cached !== undefined) return cached;
    const { html } = await loadMjml()(source, { validationLevel: 'soft' });
    this.keepMjml(source, html);
    return html;
  }

  /** Keeps a compiled MJML (one compiled in the render thread, for this one's cache). */
  keepMjml(source: string, html: string): void {
    if (this.mjml.size >= MJML_CACHE_SIZE) this.mjml.delete(this.mjml.keys().next().value as string);
    this.mjml.set(source, html);
  }
}

export function isMjml(html: string): boolean {
  return /^\s*<mjml[\s>]/i.test(html);
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

export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}
