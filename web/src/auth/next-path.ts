/**
 * Where to go after sign-in: only a path inside this app (`/shops/…`), never another site.
 * `//evil.example`, `/\evil.example`, `https://…` and anything with a scheme or control
 * characters fall back to the start page: the `next` parameter is an open-redirect risk.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (typeof next !== 'string' || next.length === 0 || next.length > 2000) return '/';
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(next)) return '/';
  if (next === '/sign-in' || next.startsWith('/sign-in?') || next.startsWith('/invite/')) return '/';
  try {
    const url = new URL(next, 'https://app.invalid');
    if (url.origin !== 'https://app.invalid') return '/';
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return '/';
  }
}
