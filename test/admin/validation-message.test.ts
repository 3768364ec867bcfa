import type { FastifySchemaValidationError } from 'fastify';
import { describe, expect, it } from 'vitest';
import { describeValidationError } from '../../src/admin-api/validation-message.js';

// Error objects as Ajv reports them (allErrors off: one per failed branch, then anyOf).
const error = (e: Partial<FastifySchemaValidationError> & Pick<FastifySchemaValidationError, 'keyword'>) => ({
  instancePath: '',
  schemaPath: '#',
  params: {},
  ...e,
});

describe('describeValidationError', () => {
  it('names a nested field with dots and indexes', () => {
    const result = describeValidationError(
      [error({ keyword: 'type', instancePath: '/slides/2/image_url', params: { type: 'string' } })],
      'body',
    );
    expect(result).toEqual({ field: 'slides[2].image_url', message: 'Field `slides[2].image_url` must be a string.' });
  });

  it('names a missing property inside an object', () => {
    const result = describeValidationError(
      [error({ keyword: 'required', instancePath: '/slides/0', params: { missingProperty: 'url' } })],
      'body',
    );
    expect(result.message).toBe('Field `slides[0].url` is required.');
  });

  it('speaks of query and path parameters by their part', () => {
    expect(
      describeValidationError([error({ keyword: 'maximum', instancePath: '/limit', params: { limit: 50 } })], 'querystring').message,
    ).toBe('Query parameter `limit` must be at most 50.');
    expect(
      describeValidationError([error({ keyword: 'pattern', instancePath: '/code', params: { pattern: '^[a-z]+$' } })], 'params').message,
    ).toBe('Path parameter `code` must match the pattern ^[a-z]+$.');
  });

  it('describes a failed union by all of its branches', () => {
    const result = describeValidationError(
      [
        error({ keyword: 'type', instancePath: '/value', schemaPath: '#/properties/value/anyOf/0/type', params: { type: 'integer' } }),
        error({
          keyword: 'enum',
          instancePath: '/value',
          schemaPath: '#/properties/value/anyOf/1/enum',
          params: { allowedValues: ['auto'] },
        }),
        error({ keyword: 'anyOf', instancePath: '/value', schemaPath: '#/properties/value/anyOf' }),
      ],
      'body',
    );
    expect(result.message).toBe('Field `value` must be an integer or one of "auto".');
  });

  it('falls back to a whole-body sentence when no field is at fault', () => {
    expect(describeValidationError([error({ keyword: 'type', params: { type: 'object' } })], 'body').message).toBe(
      'Request body must be a JSON object.',
    );
    expect(describeValidationError([], 'body').message).toBe('The request is not valid.');
  });
});
