/**
 * Which stored id each story (or slide) of a PUT keeps (docs/stories.md "Ids"), so that
 * an edit keeps its views and clicks. Pure.
 *
 * An entry that passes the id of one stored before keeps it. An entry without one (or
 * with an id that is not among those stored, or that an earlier entry already took)
 * keeps the id stored at its own place, unless an entry passed that id. Every other
 * entry is new (undefined): the caller gives it a fresh id.
 */
export function keptIds(previous: readonly number[], given: readonly (number | undefined)[]): (number | undefined)[] {
  const stored = new Set(previous);
  const claimed = new Set<number>();
  const passed = given.map((id) => {
    if (id === undefined || !stored.has(id) || claimed.has(id)) return undefined;
    claimed.add(id);
    return id;
  });
  return passed.map((id, index) => {
    if (id !== undefined) return id;
    const atPlace = previous[index];
    if (atPlace === undefined || claimed.has(atPlace)) return undefined;
    claimed.add(atPlace);
    return atPlace;
  });
}
