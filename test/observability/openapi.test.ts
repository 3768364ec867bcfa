import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATRON_VERSION } from '../../src/version.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const PARAMETER_LOCATIONS = ['query', 'header', 'path', 'cookie'];

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows a local JSON pointer (#/components/schemas/x). */
function resolvePointer(doc: JsonObject, ref: string): Json | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: Json | undefined = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObject(node) ? node[key] : Array.isArray(node) ? node[Number(key)] : undefined;
  }
  return node;
}

function collectRefs(node: Json, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) collectRefs(item, found);
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else collectRefs(value, found);
    }
  }
  return found;
}

/**
 * The structural rules of OpenAPI 3.1 that a generated document can break (no validator
 * package is a dependency): required fields, path templating matched by required path
 * parameters, responses with descriptions and valid status keys, security requirements
 * that name declared schemes, unique operation ids and local references that resolve.
 */
function openApi31Problems(doc: JsonObject): string[] {
  const problems: string[] = [];
  if (typeof doc.openapi !== 'string' || !/^3\.1\.\d+$/.test(doc.openapi)) problems.push('openapi is not 3.1.x');
  const info = doc.info;
  if (!isObject(info) || typeof info.title !== 'string' || typeof info.version !== 'string') {
    problems.push('info needs title and version');
  }
  const schemes = isObject(doc.components) && isObject(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  if (!isObject(doc.paths)) return [...problems, 'paths is not an object'];

  const operationIds = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith('/')) problems.push(`${path}: does not start with /`);
    if (!isObject(item)) {
      problems.push(`${path}: not an object`);
      continue;
    }
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    for (const [method, operation] of Object.entries(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      if (!METHODS.includes(method)) {
        if (!['parameters', 'summary', 'description', 'servers', '$ref'].includes(method)) problems.push(`${where}: unknown key`);
        continue;
      }
      if (!isObject(operation)) {
        problems.push(`${where}: not an object`);
        continue;
      }
      const parameters = Array.isArray(operation.parameters) ? operation.parameters.filter(isObject) : [];
      for (const p of parameters) {
        if (typeof p.name !== 'string' || typeof p.in !== 'string' || !PARAMETER_LOCATIONS.includes(p.in)) {
          problems.push(`${where}: parameter without a name or a valid "in"`);
        }
        const name = typeof p.name === 'string' ? p.name : '';
        if (p.in === 'path' && (p.required !== true || !templated.includes(name))) {
          problems.push(`${where}: path parameter ${name} must be required and appear in the path`);
        }
      }
      for (const name of templated) {
        if (!parameters.some((p) => p.in === 'path' && p.name === name)) problems.push(`${where}: {${name}} is not declared`);
      }
      if (!isObject(operation.responses) || Object.keys(operation.responses).length === 0) {
        problems.push(`${where}: no responses`);
      } else {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (status !== 'default' && !/^[1-5](\d\d|XX)$/.test(status)) problems.push(`${where}: status key ${status}`);
          if (!isObject(response) || (typeof response.description !== 'string' && typeof response.$ref !== 'string')) {
            problems.push(`${where} ${status}: response without a description`);
          }
        }
      }
      if (operation.requestBody !== undefined && (!isObject(operation.requestBody) || !isObject(operation.requestBody.content))) {
        problems.push(`${where}: requestBody without content`);
      }
      for (const requirement of Array.isArray(operation.security) ? operation.security : []) {
        for (const name of isObject(requirement) ? Object.keys(requirement) : []) {
          if (!(name in schemes)) problems.push(`${where}: security scheme ${name} is not declared`);
        }
      }
      if (typeof operation.operationId === 'string') {
        if (operationIds.has(operation.operationId)) problems.push(`${where}: duplicate operationId`);
        operationIds.add(operation.operationId);
      }
    }
  }
  for (const ref of collectRefs(doc)) {
    if (resolvePointer(doc, ref) === undefined) problems.push(`$ref ${ref} does not resolve`);
  }
  return problems;
}

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: JsonObject;
  beforeAll(async () => {
    t = await createTestApp();
    const response = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(response.statusCode).toBe(200);
    doc = response.json();
  });
  afterAll(async () => {
    await t.close();
  });

  it('is a valid OpenAPI 3.1 document', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(openApi31Problems(doc)).toEqual([]);
  });

  it('names Patron with the package version and declares the adminToken bearer scheme', () => {
    expect(doc.info).toMatchObject({ title: 'Patron', version: PATRON_VERSION });
    expect(doc.components).toMatchObject({ securitySchemes: { adminToken: { type: 'http', scheme: 'bearer' } } });
  });

  it('describes the admin routes, which require the admin token', () => {
    const paths = doc.paths as Record<string, Record<string, JsonObject>>;
    expect(paths['/admin/v1/shops']?.post?.security).toEqual([{ adminToken: [] }]);
    expect(paths['/admin/v1/shops']?.get).toBeDefined();
    expect(paths['/admin/v1/shops/{shop_id}']?.patch).toBeDefined();
  });

  it('tags the probes "system" and leaves the documentation routes out', () => {
    const paths = doc.paths as Record<string, Record<string, JsonObject>>;
    for (const path of ['/health', '/ready', '/metrics']) expect(paths[path]?.get?.tags, path).toEqual(['system']);
    expect(Object.keys(paths).filter((p) => p.startsWith('/docs'))).toEqual([]);
  });

  it('catches a document that breaks the rules (the check itself can fail)', () => {
    const broken = structuredClone(doc);
    (broken as { openapi: string }).openapi = '3.0.3';
    const paths = broken.paths as Record<string, Record<string, JsonObject>>;
    paths['/admin/v1/shops/{shop_id}']!.patch!.parameters = [];
    paths['/health']!.get!.security = [{ apiKey: [] }];
    paths['/ready']!.get!.responses = { '200': { $ref: '#/components/responses/Nope' } };
    expect(openApi31Problems(broken).sort()).toEqual(
      [
        'openapi is not 3.1.x',
        'PATCH /admin/v1/shops/{shop_id}: {shop_id} is not declared',
        'GET /health: security scheme apiKey is not declared',
        '$ref #/components/responses/Nope does not resolve',
      ].sort(),
    );
  });

  it('serves Swagger UI at /docs', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('swagger-ui');
  });
});
