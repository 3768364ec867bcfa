import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

interface Operation {
  tags?: string[];
  summary?: string;
  security?: Record<string, string[]>[];
  responses?: Record<string, unknown>;
}

const PUBLIC_ROUTES = ['POST /admin/v1/session', 'GET /admin/v1/invitations/{token}', 'POST /admin/v1/invitations/{token}'];

describe('admin routes in the OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.ready();
  });
  afterAll(async () => {
    await t.close();
  });

  it('documents every admin route with a tag, a summary, the adminToken scheme and its error responses', () => {
    const paths = t.app.swagger().paths as Record<string, Record<string, Operation>>;
    const admin = Object.entries(paths).filter(([path]) => path.startsWith('/admin/v1/'));
    const operations = admin.flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, op })),
    );
    expect(operations.map((o) => o.route)).toEqual(
      expect.arrayContaining([
        'POST /admin/v1/shops',
        'GET /admin/v1/shops',
        'GET /admin/v1/shops/{shop_id}',
        'PATCH /admin/v1/shops/{shop_id}',
        'POST /admin/v1/shops/{shop_id}/secret',
        'POST /admin/v1/shops/{shop_id}/custom-events',
        'GET /admin/v1/shops/{shop_id}/custom-events',
        'DELETE /admin/v1/shops/{shop_id}/custom-events/{code}',
        'GET /admin/v1/shops/{shop_id}/profiles',
        'GET /admin/v1/shops/{shop_id}/events',
      ]),
    );
    for (const { route, op } of operations) {
      expect(op.tags?.length, route).toBeGreaterThan(0);
      expect(op.summary, route).toEqual(expect.any(String));
      // Signing in and invitation links take no credential (docs/admin-users.md).
      expect(op.security, route).toEqual(PUBLIC_ROUTES.includes(route) ? [] : [{ adminToken: [] }]);
      expect(Object.keys(op.responses ?? {}), route).toContain('401');
    }
  });
});
