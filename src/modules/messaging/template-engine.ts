import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { Liquid, Tag, type TagToken, type Template, type TopLevelToken } from 'liquidjs';
import { htmlToText } from './domain/html-text.js';
import { nestingProblem } from './domain/template-nesting.js';
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
/**
 * The most characters one field may render to. liquidjs's memory limit counts what filters
 * and ranges allocate, not the text a loop writes, and a loop writes some 25 MB in the
 * render limit: past this a field is refused rather than sent (a mail client clips an
 * email's HTML far below it: Gmail at 102 KB).
 */
export const MAX_OUTPUT_CHARS = 1_000_000;
/** The tags of liquidjs that read a file. */
const FILE_TAGS = ['include', 'render', 'layout'] as const;
/** Parsed templates kept per engine. */
const PARSED_CACHE_SIZE = 1_000;
/** Compiled MJML kept (compileMjml), oldest out first. */
const MJML_CACHE_SIZE = 64;

type Mjml = (
  input: string,
  options?: { validationLevel?: 'soft' | 'strict' | 'skip' },
) => Promise<{ html: string; errors?: Array<{ line: number; message: string }> }>;
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

export type TemplateProblem = {
  readonly path: string;
  readonly message: string;
  /** Where in the field's source, as the engine tells it (from 1). */
  readonly line?: number;
  readonly column?: number;
};

/** A render that ran past its time: the message names the field and the limit. */
export class RenderTimeExceeded extends Error {
  override readonly name = 'RenderTimeExceeded';
}

/** A field's render that failed (a Liquid error, a limit): `field` is the channel's field ("html", "body"). */
export class FieldRenderError extends Error {
  override readonly name = 'FieldRenderError';
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

/** An MJML validation error of a compiled email: its line in the HTML after Liquid. */
export interface MjmlProblem {
  readonly line: number;
  readonly message: string;
}

export class TemplateEngine {
  private readonly html: Liquid;
  private readonly text: Liquid;
  private readonly parsedHtml = new Map<string, Template[]>();
  private readonly parsedText = new Map<string, Template[]>();
  private readonly mjml = new Map<string, { html: string; problems: readonly MjmlProblem[] }>();

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
        this.parse(html, source);
      } catch (error) {
        return { path, message: firstLine(error) };
      }
    }
    return undefined;
  }

  /** Every template of a mailing that does not parse, with the engine's words and the line and column it names. */
  problems(templates: MailingTemplates): TemplateProblem[] {
    const out: TemplateProblem[] = [];
    for (const { path, source, html } of templateStrings(templates)) {
      try {
        this.parse(html, source);
      } catch (error) {
        out.push({ path, ...located(firstLine(error)) });
      }
    }
    return out;
  }

  /**
   * A field's parsed template, from a bounded cache per engine (oldest out first), keyed by
   * the source itself: a source read once keeps its hash, so a lookup does not read it again.
   */
  parse(isHtml: boolean, source: string): Template[] {
    const cache = isHtml ? this.parsedHtml : this.parsedText;
    let templates = cache.get(source);
    if (!templates) {
      const nesting = nestingProblem(source);
      if (nesting !== undefined) throw new Error(nesting);
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
        throw new FieldRenderError(firstLine(error), field);
      }
      if (out[field].length > MAX_OUTPUT_CHARS) {
        throw new FieldRenderError(`${channel}.${field} renders to more than ${MAX_OUTPUT_CHARS} characters`, field);
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
    mjmlProblems?: (problems: readonly MjmlProblem[]) => void,
  ): Promise<RenderedMessage[C] | undefined> {
    const fields = set[channel] as ChannelFields | undefined;
    if (!fields) return undefined;
    const out = this.renderFields(channel, fields, scope);
    if (channel !== 'email') return out as RenderedMessage[C];
    const html = out.html ?? '';
    if (!isMjml(html)) return this.email(out, html) as RenderedMessage[C];
    beforeMjml?.();
    let compiled: { html: string; problems: readonly MjmlProblem[] };
    try {
      compiled = await this.compileMjmlChecked(html);
    } catch (error) {
      throw new FieldRenderError(`MJML: ${firstLine(error)}`, 'html');
    }
    mjmlProblems?.(compiled.problems);
    return this.email(out, compiled.html) as RenderedMessage[C];
  }

  /** The email of rendered fields and its final HTML: the text part derived from the HTML when the mailing has none. */
  email(out: Record<string, string>, html: string): RenderedEmail {
    return { subject: out.subject ?? '', html, text: out.text ?? htmlToText(html) };
  }

  /** The HTML of MJML compiled lately in this thread, if any (compileMjml). */
  cachedMjml(source: string): string | undefined {
    return this.mjml.get(source)?.html;
  }

  /**
   * MJML to HTML, kept for the last few distinct inputs: compiling takes tens of
   * milliseconds, and a mailing whose MJML part names no per-message variable (a bulk
   * mailing's, most transactional layouts with the variables in the text parts) compiles
   * to the same HTML every time.
   */
  async compileMjml(source: string): Promise<string> {
    return (await this.compileMjmlChecked(source)).html;
  }

  /** compileMjml with mjml's validation errors (soft validation: the HTML is made all the same). */
  async compileMjmlChecked(source: string): Promise<{ html: string; problems: readonly MjmlProblem[] }> {
    const cached = this.mjml.get(source);
    if (cached !== undefined) return cached;
    const { html, errors } = await loadMjml()(source, { validationLevel: 'soft' });
    const compiled = { html, problems: (errors ?? []).map((e) => ({ line: e.line, message: e.message })) };
    this.remember(source, compiled);
    return compiled;
  }

  /** Keeps a compiled MJML (one compiled in the render thread, for this one's cache). */
  keepMjml(source: string, html: string): void {
    this.remember(source, { html, problems: [] });
  }

  private remember(source: string, compiled: { html: string; problems: readonly MjmlProblem[] }): void {
    if (this.mjml.size >= MJML_CACHE_SIZE) this.mjml.delete(this.mjml.keys().next().value as string);
    this.mjml.set(source, compiled);
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

/** An engine's message split into its words and the ", line:N, col:M" it ends with, when it does. */
export function located(message: string): { message: string; line?: number; column?: number } {
  const at = /,? line:(\d+), col:(\d+)$/.exec(message);
  if (!at) return { message };
  return { message: message.slice(0, at.index), line: Number(at[1]), column: Number(at[2]) };
}
