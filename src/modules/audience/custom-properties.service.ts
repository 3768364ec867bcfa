import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { ShopsService } from '../shops/index.js';
import type { CustomProperty } from './audience.types.js';
import * as repo from './custom-properties.repo.js';
import {
  CUSTOM_PROPERTY_CODE_PATTERN,
  CUSTOM_PROPERTY_TYPES,
  isCustomPropertyType,
  MAX_CUSTOM_PROPERTIES,
  type CustomPropertyType,
} from './domain/custom-properties.js';
import { RESERVED_NAMES } from './domain/record.js';

export const PROPERTY_NAME_MAX_LENGTH = 200;

/**
 * Custom user properties (interface.md, "Audience user record"): a shop creates a code
 * with a type in the admin API before imports may carry values under that code.
 */
export class CustomPropertiesService {
  constructor(private readonly deps: { readonly db: DbHandle; readonly clock: Clock; readonly shops: Pick<ShopsService, 'requireShop'> }) {}

  private get db() {
    return this.deps.db.db;
  }

  async createProperty(shopId: string, input: { code: string; type: string; name?: string | null }): Promise<CustomProperty> {
    await this.deps.shops.requireShop(shopId);
    if (!CUSTOM_PROPERTY_CODE_PATTERN.test(input.code)) {
      throw new AppError('VALIDATION_FAILED', 'Field `code` must be 1 to 64 characters of a-z, 0-9 and _, starting with a letter.', {
        field: 'code',
      });
    }
    if (RESERVED_NAMES.has(input.code)) {
      throw new AppError('VALIDATION_FAILED', `Field \`code\` must not be \`${input.code}\`, a field of the audience record.`, {
        field: 'code',
      });
    }
    if (!isCustomPropertyType(input.type)) {
      throw new AppError('VALIDATION_FAILED', `Field \`type\` must be one of ${CUSTOM_PROPERTY_TYPES.join(', ')}.`, {
        field: 'type',
      });
    }
    const name = input.name?.trim() || null;
    if (name !== null && name.length > PROPERTY_NAME_MAX_LENGTH) {
      throw new AppError('VALIDATION_FAILED', `Field \`name\` must be at most ${PROPERTY_NAME_MAX_LENGTH} characters.`, {
        field: 'name',
      });
    }
    if ((await repo.countProperties(this.db, shopId)) >= MAX_CUSTOM_PROPERTIES) {
      throw new AppError('CONFLICT', `A shop has at most ${MAX_CUSTOM_PROPERTIES} custom properties.`);
    }
    const row: repo.CustomPropertyRow = {
      shop_id: shopId,
      code: input.code,
      type: input.type,
      name,
      created_at: this.deps.clock.now(),
    };
    if (!(await repo.insertProperty(this.db, row))) {
      throw new AppError('CONFLICT', `Custom property \`${input.code}\` already exists.`, { field: 'code' });
    }
    return toProperty(row);
  }

  async listProperties(shopId: string): Promise<CustomProperty[]> {
    await this.deps.shops.requireShop(shopId);
    return (await repo.listProperties(this.db, shopId)).map(toProperty);
  }

  /** Values already stored stay on the profiles; later imports report the code as unknown. */
  async deleteProperty(shopId: string, code: string): Promise<void> {
    await this.deps.shops.requireShop(shopId);
    if (!(await repo.deleteProperty(this.db, shopId, code))) {
      throw new AppError('NOT_FOUND', `Custom property \`${code}\` does not exist.`);
    }
  }

  /** code → type, for checking records. */
  async propertyTypes(shopId: string): Promise<Map<string, CustomPropertyType>> {
    const rows = await repo.listProperties(this.db, shopId);
    return new Map(rows.map((r) => [r.code, r.type]));
  }
}

function toProperty(row: repo.CustomPropertyRow): CustomProperty {
  return { code: row.code, type: row.type, name: row.name, createdAt: row.created_at };
}
