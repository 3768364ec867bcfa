import { readDate, readDateTime, readFlag, readInteger, readNumber, readText, type Read } from './fields.js';

/**
 * Custom user properties (interface.md, "Audience user record": "Custom user properties
 * created in the admin area are given under their unique code"). A shop defines each
 * code with a type in the admin API; an import stores a value only when it fits the type.
 */

export const CUSTOM_PROPERTY_TYPES = ['string', 'integer', 'float', 'boolean', 'date', 'datetime'] as const;
export type CustomPropertyType = (typeof CUSTOM_PROPERTY_TYPES)[number];

/** Starts with a letter, so that no code can be `__proto__` or look like a number. */
export const CUSTOM_PROPERTY_CODE_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

/** Properties one shop may define: each is checked on every imported record. */
export const MAX_CUSTOM_PROPERTIES = 200;

/** Longest stored text of a string property. */
export const CUSTOM_STRING_MAX_LENGTH = 1000;

/** A stored value: JSON, in profiles.properties under the code. */
export type PropertyValue = string | number | boolean;

/**
 * Reads a value of the type. Integers are safe integers; floats finite numbers; dates
 * YYYY-MM-DD; date-times ISO 8601 with a zone, stored in UTC (`…Z`).
 */
export function readPropertyValue(type: CustomPropertyType, value: unknown): Read<PropertyValue> {
  switch (type) {
    case 'string':
      return readText(value, CUSTOM_STRING_MAX_LENGTH);
    case 'integer':
      return readInteger(value, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    case 'float':
      return readNumber(value);
    case 'boolean':
      return readFlag(value);
    case 'date':
      return readDate(value);
    case 'datetime':
      return readDateTime(value);
  }
}

export function isCustomPropertyType(value: unknown): value is CustomPropertyType {
  return typeof value === 'string' && (CUSTOM_PROPERTY_TYPES as readonly string[]).includes(value);
}
