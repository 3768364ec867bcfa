/** The section (path below the shop) whose link is the longest prefix of the page's path. */
export function activeOf(
  pathname: string,
  shopBase: string,
  groups: readonly { readonly links: readonly (readonly [string, string])[] }[],
): string | undefined {
  if (!pathname.startsWith(shopBase)) return undefined;
  const rest = pathname.slice(shopBase.length);
  let best: string | undefined;
  for (const group of groups)
    for (const [section] of group.links)
      if ((rest === section || rest.startsWith(`${section}/`)) && (best === undefined || section.length > best.length)) best = section;
  return best;
}
