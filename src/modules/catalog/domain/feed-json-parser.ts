/**
 * A streaming reader of JSON feeds ({categories:[…], locations:[…], offers:[…]}): a small
 * scanner follows strings and nesting, cuts each element of a top-level array out of the
 * text as it closes and parses that element alone, so memory holds one offer at a time.
 * Everything outside those elements (keys, separators, small top-level values) is kept
 * as a skeleton, parsed at the end, so a document that is not JSON fails as a whole. Pure.
 */
import { mapJsonItem, type JsonSection } from './feed-json-mapping.js';
import { FeedFormatError, type FeedItem } from './feed-types.js';

const MAX_DEPTH = 64;
/** One element of a top-level array (an offer with its description and params). */
const MAX_ELEMENT_CHARS = 1024 * 1024;
/** What lies outside the elements: keys and small values. */
const MAX_SKELETON_CHARS = 64 * 1024;

/** The top-level arrays read element by element; other keys stay in the skeleton. */
const SECTIONS: ReadonlySet<string> = new Set(['categories', 'locations', 'offers']);

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const COMMA = 44;

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

export class JsonFeedParser {
  private items: FeedItem[] = [];
  /** Open containers: '{' or '['. */
  private readonly stack: number[] = [];
  private inString = false;
  private escape = false;
  private skeleton = '';
  /** The top-level key whose array is open, and what may come next in that array. */
  private section: { key: string; state: 'start' | 'after' | 'next' } | undefined;
  private capture: string[] | undefined;
  private captureChars = 0;
  private readonly counts = new Map<string, number>();

  write(chunk: string): void {
    let from = 0; // start of the text not yet copied to the capture or the skeleton
    for (let i = 0; i < chunk.length; i += 1) {
      const c = chunk.charCodeAt(i);
      if (this.inString) {
        if (this.escape) this.escape = false;
        else if (c === BACKSLASH) this.escape = true;
        else if (c === QUOTE) this.inString = false;
        continue;
      }
      if (c === QUOTE) {
        if (this.atArrayLevel()) this.primitiveInSection();
        this.inString = true;
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (this.atArrayLevel()) {
          // What lay between elements was white space and commas, checked as it came.
          this.startElement();
          from = i;
          this.capture = [];
          this.captureChars = 0;
        } else if (c === OPEN_ARRAY && this.stack.length === 1 && this.stack[0] === OPEN_OBJECT) {
          this.keep(chunk.slice(from, i));
          const key = this.lastKey();
          if (SECTIONS.has(key)) {
            this.keep('[');
            from = i + 1;
            this.section = { key, state: 'start' };
          } else {
            from = i;
          }
        }
        this.stack.push(c);
        if (this.stack.length > MAX_DEPTH) throw new FeedFormatError(`The feed nests JSON deeper than ${MAX_DEPTH}.`);
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        const open = this.stack.pop();
        if (open === undefined || (open === OPEN_OBJECT) !== (c === CLOSE_OBJECT)) {
          throw new FeedFormatError('The feed is not valid JSON: a bracket does not match.');
        }
        if (this.capture !== undefined && this.stack.length === 2) {
          this.capture.push(chunk.slice(from, i + 1));
          from = i + 1;
          this.endElement();
        } else if (this.section !== undefined && this.stack.length === 1) {
          if (this.section.state === 'next') throw new FeedFormatError('The feed is not valid JSON: a comma before "]".');
          // The skeleton keeps one placeholder per section, not one per element.
          this.keep(`${this.section.state === 'after' ? '0' : ''}]`);
          from = i + 1;
          this.section = undefined;
        }
      } else if (this.atArrayLevel() && !isSpace(c)) {
        if (c !== COMMA) this.primitiveInSection();
        if (this.section?.state !== 'after') throw new FeedFormatError('The feed is not valid JSON: a comma out of place.');
        this.section.state = 'next';
        from = i + 1;
      }
    }
    const rest = chunk.slice(from);
    if (this.capture !== undefined) {
      this.capture.push(rest);
      this.captureChars += rest.length;
      // Checked once a chunk: an element may overrun the bound by at most one chunk.
      if (this.captureChars > MAX_ELEMENT_CHARS) this.tooLong();
    } else if (!(this.atArrayLevel() && rest.trim() === '')) {
      this.keep(rest);
    }
  }

  end(): void {
    if (this.stack.length > 0 || this.inString) throw new FeedFormatError('The feed is not valid JSON: it ends too early.');
    let shape: unknown;
    try {
      shape = JSON.parse(this.skeleton);
    } catch (error) {
      throw new FeedFormatError(`The feed is not valid JSON: ${(error as Error).message}`);
    }
    if (typeof shape !== 'object' || shape === null || Array.isArray(shape)) {
      throw new FeedFormatError('The JSON feed must be an object with categories, locations and offers.');
    }
    if (!Array.isArray((shape as Record<string, unknown>).offers)) {
      throw new FeedFormatError('The JSON feed has no "offers" array.');
    }
    for (const key of ['categories', 'locations'] as const) {
      const value = (shape as Record<string, unknown>)[key];
      if (value !== undefined && !Array.isArray(value)) throw new FeedFormatError(`"${key}" of the JSON feed must be an array.`);
    }
  }

  drain(): FeedItem[] {
    const items = this.items;
    this.items = [];
    return items;
  }

  /** Inside a top-level array, outside any element. */
  private atArrayLevel(): boolean {
    return this.section !== undefined && this.stack.length === 2 && this.capture === undefined;
  }

  private startElement(): void {
    const section = this.section as { state: string };
    if (section.state === 'after') throw new FeedFormatError('The feed is not valid JSON: a comma is missing between elements.');
    section.state = 'after';
  }

  private primitiveInSection(): never {
    throw new FeedFormatError(`"${this.section?.key ?? ''}" of the JSON feed must be an array of objects.`);
  }

  private tooLong(): never {
    throw new FeedFormatError(`An element of "${this.section?.key ?? ''}" is longer than ${MAX_ELEMENT_CHARS} characters.`);
  }

  private endElement(): void {
    const text = (this.capture as string[]).join('');
    if (text.length > MAX_ELEMENT_CHARS) this.tooLong();
    this.capture = undefined;
    this.captureChars = 0;
    const key = (this.section as { key: string }).key;
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    let element: unknown;
    try {
      element = JSON.parse(text);
    } catch (error) {
      throw new FeedFormatError(`The feed is not valid JSON: ${key} element ${count}: ${(error as Error).message}`);
    }
    this.items.push(mapJsonItem(key as JsonSection, element, count));
  }

  private keep(text: string): void {
    this.skeleton += text;
    if (this.skeleton.length > MAX_SKELETON_CHARS) {
      throw new FeedFormatError(`The JSON feed holds more than ${MAX_SKELETON_CHARS} characters outside its arrays.`);
    }
  }

  /** The key just before the '[' being opened at the top level. */
  private lastKey(): string {
    const match = /"((?:[^"\\]|\\.)*)"\s*:\s*$/.exec(this.skeleton);
    if (!match) return '';
    try {
      return JSON.parse(`"${match[1] ?? ''}"`) as string;
    } catch {
      return '';
    }
  }
}
