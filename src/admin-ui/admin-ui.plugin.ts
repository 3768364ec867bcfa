import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';

/** Where `npm run build` puts the admin UI (vite, web/vite.config.ts): two levels above src/admin-ui and dist/admin-ui alike. */
export const DEFAULT_ADMIN_UI_DIR = path.resolve(import.meta.dirname, '..', '..', 'web', 'dist');

export interface AdminUiOptions {
  /** The built app: index.html and assets/. Tests pass their own. */
  readonly dir?: string;
}

/**
 * The app's HTML may load its own scripts and styles only, talk to its own origin only and
 * never be framed. Mantine sets CSS variables in a <style> element and in style attributes,
 * hence 'unsafe-inline' for styles (never for scripts).
 */
export const ADMIN_UI_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-cache',
  'content-security-policy': ADMIN_UI_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
} as const;

const NOT_BUILT =
  'The Patron admin UI is not built in this checkout.\n\n' +
  'Build it with `npm run build` (or `npm install`, which runs the build), then restart Patron.\n' +
  'The admin API under /admin/v1 works without it; see docs/admin-ui.md.\n';

/**
 * The admin UI's paths: everything under /admin/ but the API (/admin/v1) and the assets.
 * The fallback route is constrained to them, so that an unknown /admin/v1 path keeps the
 * API's own 404 and 405 (http/not-found.plugin.ts) and a missing asset stays missing,
 * rather than meeting the app's index.html.
 */
function isUiPath(url: string): boolean {
  const pathname = url.split('?', 1)[0] ?? '';
  return !['/admin/v1', '/admin/assets'].some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/**
 * The admin web app (web/, docs/admin-ui.md) from the same process under /admin/: hashed
 * assets under /admin/assets/ cached for a year, index.html never cached and answered for
 * every other path of the app (its deep links), a missing asset a plain 404.
 */
export const adminUiPlugin: FastifyPluginAsync<AdminUiOptions> = async (app, options) => {
  const dir = options.dir ?? DEFAULT_ADMIN_UI_DIR;
  const indexFile = path.join(dir, 'index.html');
  const assetsDir = path.join(dir, 'assets');

  app.addConstraintStrategy({
    name: 'adminUi',
    mustMatchWhenDerived: false,
    storage() {
      const handlers = new Map<string, unknown>();
      return {
        get: (value: string) => (handlers.get(value) ?? null) as never,
        set: (value: string, store: unknown) => void handlers.set(value, store),
      };
    },
    deriveConstraint: (request) => (request.url !== undefined && isUiPath(request.url) ? 'ui' : 'api'),
  });

  if (fs.existsSync(assetsDir)) {
    // Its own context under /admin/assets, whose 404 is a plain one: the app's 404 handler
    // (http/not-found.plugin.ts) would answer 405, as another method serves the path.
    await app.register(
      async (assets) => {
        assets.setNotFoundHandler((_request, reply) =>
          reply.code(404).headers({ 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).send('Not found.\n'),
        );
        await assets.register(fastifyStatic, {
          root: assetsDir,
          prefix: '/',
          decorateReply: false,
          index: false,
          list: false,
          dotfiles: 'ignore',
          // Vite names every asset by its content hash: a name never changes meaning.
          cacheControl: true,
          maxAge: 365 * 24 * 60 * 60 * 1000,
          immutable: true,
          setHeaders: (res) => {
            res.setHeader('x-content-type-options', 'nosniff');
          },
        });
      },
      { prefix: '/admin/assets' },
    );
  }

  const answerIndex = async (_request: FastifyRequest, reply: FastifyReply) => {
    // Read on every request (a few hundred bytes): a rebuilt app is served without a restart.
    const html = await fs.promises.readFile(indexFile).catch(() => undefined);
    if (html === undefined) {
      return reply.code(503).headers({ 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).send(NOT_BUILT);
    }
    return reply.code(200).headers(HTML_HEADERS).send(html);
  };
  const route = { schema: { hide: true }, constraints: { adminUi: 'ui' } } as const;
  app.get('/admin', route, answerIndex);
  app.get('/admin/*', route, answerIndex);
};
