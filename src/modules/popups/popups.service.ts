import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { fromFlag, toFlag } from '../../db/dialect.js';
import { AppError } from '../../errors.js';
import type { SegmentsService } from '../audience/index.js';
import type { ShopsService } from '../shops/index.js';
import { checkContent, normalizeActions, type Popup, type PopupActions, type PopupPosition, type PopupStatus } from './domain/popup.js';
import * as repo from './popups.repo.js';

export interface PopupsDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: ShopsService;
  readonly segments: Pick<SegmentsService, 'hasSegment' | 'segmentIdsOf'>;
}

/** What the admin API sends: every field on create (name, status, position required), some on PATCH. */
export interface PopupInput {
  readonly name?: string;
  readonly status?: PopupStatus;
  readonly position?: PopupPosition;
  readonly delay?: number;
  readonly streams?: readonly string[];
  readonly screens?: readonly string[];
  readonly channels?: readonly string[];
  readonly html?: string;
  /** As the request holds it: checked by domain/popup.ts. */
  readonly components?: unknown;
  readonly actions?: unknown;
  readonly webPushSystem?: boolean;
  readonly segmentId?: number | null;
  readonly startsAt?: number | null;
  readonly endsAt?: number | null;
}

/** A popup with its figures: devices shown it (POST /popup/showed) and devices that reported a click. */
export interface PopupWithFigures extends Popup {
  readonly shown: number;
  readonly clicks: number;
}

/**
 * Popups of the admin API (admin-api.md "Popups", docs/popups.md). A write changes a
 * setting: the admin scope's settings hook drops every process's offers cache.
 */
export class PopupsService {
  constructor(private readonly deps: PopupsDeps) {}

  private get db() {
    return this.deps.db.db;
  }

  async createPopup(shopId: string, input: PopupInput): Promise<PopupWithFigures> {
    await this.deps.shops.requireShop(shopId);
    for (const field of ['name', 'status', 'position'] as const) {
      if (input[field] === undefined) throw new AppError('VALIDATION_FAILED', `Field \`${field}\` is required.`, { field });
    }
    const values = await this.checkedValues(shopId, input, undefined);
    const now = this.deps.clock.now();
    const row = await this.db.transaction().execute(async (trx) => {
      const id = await repo.nextId(trx, shopId);
      return repo.insertPopup(trx, { shop_id: shopId, id, ...values, created_at: now, updated_at: now });
    });
    return { ...toPopup(row), shown: 0, clicks: 0 };
  }

  async updatePopup(shopId: string, id: number, input: PopupInput): Promise<PopupWithFigures> {
    const current = await this.requirePopup(shopId, id);
    const values = await this.checkedValues(shopId, input, current);
    const row = await repo.updatePopup(this.db, shopId, id, { ...values, updated_at: this.deps.clock.now() });
    if (!row) throw popupNotFound(id);
    return this.withFigures(shopId, toPopup(row));
  }

  async getPopup(shopId: string, id: number): Promise<PopupWithFigures> {
    return this.withFigures(shopId, await this.requirePopup(shopId, id));
  }

  /** Every popup of the shop, newest first, with its figures. */
  async listPopups(shopId: string): Promise<PopupWithFigures[]> {
    await this.deps.shops.requireShop(shopId);
    const [rows, shown, clicks] = await Promise.all([
      repo.listPopups(this.db, shopId),
      repo.countMarks(this.db, 'popup_shows', shopId),
      repo.countMarks(this.db, 'popup_clicks', shopId),
    ]);
    return rows.map((row) => {
      const popup = toPopup(row);
      return { ...popup, shown: shown.get(popup.id) ?? 0, clicks: clicks.get(popup.id) ?? 0 };
    });
  }

  async deletePopup(shopId: string, id: number): Promise<void> {
    await this.deps.shops.requireShop(shopId);
    if (!(await repo.deletePopup(this.db, shopId, id))) throw popupNotFound(id);
  }

  private async requirePopup(shopId: string, id: number): Promise<Popup> {
    await this.deps.shops.requireShop(shopId);
    const row = Number.isSafeInteger(id) ? await repo.findPopup(this.db, shopId, id) : undefined;
    if (!row) throw popupNotFound(id);
    return toPopup(row);
  }

  private async withFigures(shopId: string, popup: Popup): Promise<PopupWithFigures> {
    const [shown, clicks] = await Promise.all([
      repo.countMarks(this.db, 'popup_shows', shopId, [popup.id]),
      repo.countMarks(this.db, 'popup_clicks', shopId, [popup.id]),
    ]);
    return { ...popup, shown: shown.get(popup.id) ?? 0, clicks: clicks.get(popup.id) ?? 0 };
  }

  /** The row values of the popup as it will be (current, with the input on top), checked whole. */
  private async checkedValues(shopId: string, input: PopupInput, current: Popup | undefined): Promise<repo.PopupValues> {
    const content = checkContent(input);
    if (!content.ok)
      throw new AppError('VALIDATION_FAILED', `Field \`${content.field}\` ${content.requirement}.`, { field: content.field });
    const html = input.html ?? current?.html ?? '';
    const components = (input.components ?? current?.components ?? {}) as Record<string, string>;
    const actions: PopupActions = input.actions !== undefined ? normalizeActions(input.actions) : (current?.actions ?? {});
    if (html.trim() === '' && Object.keys(components).length === 0) {
      throw new AppError('VALIDATION_FAILED', 'Field `html` is required when `components` is empty: a popup shows one of them.', {
        field: 'html',
      });
    }
    const startsAt = input.startsAt !== undefined ? input.startsAt : (current?.startsAt ?? null);
    const endsAt = input.endsAt !== undefined ? input.endsAt : (current?.endsAt ?? null);
    if (startsAt !== null && endsAt !== null && endsAt <= startsAt) {
      throw new AppError('VALIDATION_FAILED', 'Field `ends_at` must be after `starts_at`.', { field: 'ends_at' });
    }
    const segmentId = input.segmentId !== undefined ? input.segmentId : (current?.segmentId ?? null);
    if (input.segmentId !== undefined && segmentId !== null && !(await this.deps.segments.hasSegment(shopId, segmentId))) {
      throw new AppError('VALIDATION_FAILED', `Field \`segment_id\` names no segment of the shop (${segmentId}).`, { field: 'segment_id' });
    }
    const unique = (list: readonly string[] | undefined, fallback: readonly string[]) => JSON.stringify([...new Set(list ?? fallback)]);
    return {
      name: input.name ?? current?.name ?? '',
      status: input.status ?? current?.status ?? 'inactive',
      position: input.position ?? current?.position ?? 'centered',
      delay: input.delay ?? current?.delay ?? 0,
      streams: unique(input.streams, current?.streams ?? []),
      screens: unique(input.screens, current?.screens ?? []),
      channels: unique(input.channels, current?.channels ?? []),
      html,
      components: JSON.stringify(components),
      actions: JSON.stringify(actions),
      web_push_system: toFlag(input.webPushSystem ?? current?.webPushSystem ?? false),
      segment_id: segmentId,
      starts_at: startsAt,
      ends_at: endsAt,
    };
  }
}

export function popupNotFound(id: number): AppError {
  return new AppError('NOT_FOUND', `Popup ${id} does not exist.`);
}

export function toPopup(row: repo.PopupRow): Popup {
  return {
    id: Number(row.id),
    name: row.name,
    status: row.status,
    position: row.position as PopupPosition,
    delay: row.delay,
    streams: JSON.parse(row.streams) as string[],
    screens: JSON.parse(row.screens) as string[],
    channels: JSON.parse(row.channels) as string[],
    html: row.html,
    components: JSON.parse(row.components) as Record<string, string>,
    actions: JSON.parse(row.actions) as PopupActions,
    webPushSystem: fromFlag(row.web_push_system),
    segmentId: row.segment_id === null ? null : Number(row.segment_id),
    startsAt: row.starts_at === null ? null : Number(row.starts_at),
    endsAt: row.ends_at === null ? null : Number(row.ends_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
