export { createBmClient, CSRF_HEADER, type BmClient, type BmClientOptions } from './client';
export { ApiError, unwrap, type FetchResult } from './errors';
export * from './messages';
export type { components, operations, paths } from './generated/openapi';
export { roleMay, rolesUpTo, type Role, type RoleOperation } from './roles';
