import { describe, expect, it } from 'vitest';
import { fieldOfMessage } from './client';

describe("the field a server's 422 names", () => {
  it('is read from the sentence the admin API writes (src/admin-api/validation-message.ts)', () => {
    expect(fieldOfMessage('Field `paid_till` must be a date YYYY-MM-DD or null.')).toBe('paid_till');
    expect(fieldOfMessage('Query parameter `limit` must be <= 100.')).toBe('limit');
    expect(fieldOfMessage('Request body is not valid JSON.')).toBeUndefined();
  });
});
