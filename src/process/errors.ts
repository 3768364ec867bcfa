/** Refused with PATRON_ADMIN_TOKEN set: the environment would keep overriding the stored token. */
export class AdminTokenFromEnvironmentError extends Error {
  override readonly name = 'AdminTokenFromEnvironmentError';
  constructor() {
    super('PATRON_ADMIN_TOKEN is set, so the admin token comes from the environment: change it there and restart instead.');
  }
}
