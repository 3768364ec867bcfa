/** The transactional screens' paths (routes.tsx): the list, and one mailing's page by its code. */
export const listPath = (shopId: string) => `/shops/${shopId}/transactional`;
export const mailingPath = (shopId: string, code: string) => `/shops/${shopId}/transactional/m/${encodeURIComponent(code)}`;
