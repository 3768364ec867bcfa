export type { PopupsServices } from './module.js';
export type { PopupOffer } from './domain/popup.js';
