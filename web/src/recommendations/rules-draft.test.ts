import { describe, expect, it } from 'vitest';
import { changeList, draftOf, moved, ownProblems, problemsOf, recommenderRule, rulesOf, type RuleDraft } from './rules-draft';

const RULES = [
  { if: { item_in_category: '7' }, then: [{ recommender: 'similar' }], else: [{ recommender: 'popular' }] },
  { if: { has_cart: true }, then: [{ recommender: 'also_bought' }] },
  { recommender: 'interesting' },
];

describe('rule drafts', () => {
  it('turns the API’s rules into drafts and back unchanged', () => {
    expect(rulesOf(draftOf(RULES))).toEqual(RULES);
  });

  it('adds, removes and reorders rules in a nested list by its path', () => {
    const drafts = draftOf(RULES);
    const added = changeList(drafts, 'rules[0].else', (list) => [...list, recommenderRule('trending')]);
    expect(rulesOf(added)[0]).toEqual({ ...RULES[0], else: [{ recommender: 'popular' }, { recommender: 'trending' }] });
    const reordered = changeList(added, 'rules[0].else', (list) => moved(list, 1, -1));
    expect((rulesOf(reordered)[0] as { else: unknown[] }).else).toEqual([{ recommender: 'trending' }, { recommender: 'popular' }]);
    const removed = changeList(reordered, 'rules', (list) => list.filter((_, i) => i !== 1));
    expect(rulesOf(removed)).toHaveLength(2);
    expect(moved([1, 2, 3], 0, -1)).toEqual([1, 2, 3]);
  });

  it('writes item_in_category with its id trimmed, and a flag condition as true', () => {
    const [rule] = draftOf([{ if: { item_in_category: ' 12 ' }, then: [] }]) as [RuleDraft];
    expect(rulesOf([rule])).toEqual([{ if: { item_in_category: '12' }, then: [] }]);
    expect(rulesOf([{ ...rule, condition: 'known_customer' } as RuleDraft])).toEqual([{ if: { known_customer: true }, then: [] }]);
  });

  it('reads each problem of the server’s 422 under its path, and gives each rule its own', () => {
    const one = problemsOf('Field `rules[0].then[1].recommender` must be one of popular, trending.');
    expect([...one]).toEqual([['rules[0].then[1].recommender', 'Field `rules[0].then[1].recommender` must be one of popular, trending.']]);
    const two = problemsOf(
      'The rules have 2 problems: Field `rules[0].if.item_in_category` must be a category id of 1 to 255 characters. Field `rules[0].then[0].recommender` must be one of popular.',
    );
    expect([...two.keys()]).toEqual(['rules[0].if.item_in_category', 'rules[0].then[0].recommender']);
    expect(ownProblems(two, 'rules[0]')).toEqual(['Field `rules[0].if.item_in_category` must be a category id of 1 to 255 characters.']);
    expect(ownProblems(two, 'rules[0].then[0]')).toEqual(['Field `rules[0].then[0].recommender` must be one of popular.']);
    expect(ownProblems(two, 'rules[1]')).toEqual([]);
    expect([...problemsOf('Field `title` must be 1 to 255 characters.')]).toEqual([]);
  });
});
