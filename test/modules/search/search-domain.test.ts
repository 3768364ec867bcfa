import { describe, expect, it } from 'vitest';
import {
  MAX_SEARCH_QUERY_LENGTH,
  MAX_SEARCH_WORDS,
  MAX_SEARCH_WORD_LENGTH,
  normalizeQuery,
  searchTerms,
} from '../../../src/modules/search/domain/query.js';
import { entryFromSearchEvent, NO_RESULT_WINDOW_MS, noResultWindowStart } from '../../../src/modules/search/domain/search-log.js';
import type { StoredEvent } from '../../../src/modules/tracking/tracking.types.js';

describe('normalizeQuery', () => {
  it('trims, lower-cases and collapses whitespace', () => {
    expect(normalizeQuery('  Red\t\tSHOES \n 42 ')).toBe('red shoes 42');
    expect(normalizeQuery('  СМАРТФОН  Ёлка ')).toBe('смартфон ёлка');
  });

  it('is empty for whitespace only', () => {
    expect(normalizeQuery(' \t\n ')).toBe('');
  });

  it('composes decomposed letters (NFC), so that й typed either way is one letter', () => {
    expect(normalizeQuery('и\u0306огурт')).toBe('йогурт');
  });

  it('keeps at most 1,000 characters without splitting a surrogate pair', () => {
    expect(normalizeQuery('a'.repeat(1500))).toHaveLength(MAX_SEARCH_QUERY_LENGTH);
    const emoji = `${'a'.repeat(MAX_SEARCH_QUERY_LENGTH - 1)}😀`;
    expect(normalizeQuery(emoji)).toBe('a'.repeat(MAX_SEARCH_QUERY_LENGTH - 1));
  });
});

describe('searchTerms', () => {
  it('splits at every character that is not a letter or a digit', () => {
    expect(searchTerms('iphone-15, 2.5 «мир» a_b', 'full_search').map((t) => t.text)).toEqual(['iphone', '15', '2', '5', 'мир', 'a', 'b']);
  });

  it('reads ё as е', () => {
    expect(searchTerms('ёлка чёрная', 'full_search').map((t) => t.text)).toEqual(['елка', 'черная']);
  });

  it('makes the last word of an instant search a prefix, and no word of a full search', () => {
    expect(searchTerms('red sho', 'instant_search')).toEqual([
      { text: 'red', prefix: false },
      { text: 'sho', prefix: true },
    ]);
    expect(searchTerms('red sho', 'full_search').every((t) => !t.prefix)).toBe(true);
  });

  it('has no terms for a query without letters or digits', () => {
    expect(searchTerms('!!! ??? --', 'instant_search')).toEqual([]);
  });

  it('keeps the first words and the last one of a very long query, each word bounded', () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
    const terms = searchTerms(words.join(' '), 'instant_search');
    expect(terms).toHaveLength(MAX_SEARCH_WORDS);
    expect(terms.at(-1)).toEqual({ text: 'w39', prefix: true });
    expect(terms[0]).toEqual({ text: 'w0', prefix: false });
    expect(searchTerms('x'.repeat(500), 'full_search')[0]!.text).toHaveLength(MAX_SEARCH_WORD_LENGTH);
  });
});

describe('the search log', () => {
  const event = (overrides: Partial<StoredEvent>): StoredEvent => ({
    id: 7,
    shopId: 'shop',
    profileId: 1,
    did: 'AAAAAAAAA1',
    event: 'search',
    custom: false,
    time: 1_000,
    items: [],
    params: { search_query: '  Red SHOES ' },
    ...overrides,
  });

  it('logs a pushed search event by its id, with an unknown result count', () => {
    expect(entryFromSearchEvent(event({}))).toEqual({
      shopId: 'shop',
      time: 1_000,
      query: 'red shoes',
      type: 'push',
      results: null,
      did: 'AAAAAAAAA1',
      sid: null,
      eventId: 7,
    });
  });

  it('ignores other events, custom events named search, and blank or missing queries', () => {
    expect(entryFromSearchEvent(event({ event: 'view' }))).toBeUndefined();
    expect(entryFromSearchEvent(event({ custom: true }))).toBeUndefined();
    expect(entryFromSearchEvent(event({ params: {} }))).toBeUndefined();
    expect(entryFromSearchEvent(event({ params: { search_query: '   ' } }))).toBeUndefined();
    expect(entryFromSearchEvent(event({ params: { search_query: 42 } }))).toBeUndefined();
  });

  it('counts a query while it is younger than two weeks', () => {
    const now = 100 * NO_RESULT_WINDOW_MS;
    expect(noResultWindowStart(now)).toBe(now - NO_RESULT_WINDOW_MS + 1);
  });
});
