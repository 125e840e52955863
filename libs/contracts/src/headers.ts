/** Headers the gateway sets on calls to internal services; clients cannot set them (the gateway strips them). */
export const INTERNAL_HEADERS = {
  token: 'x-internal-token',
  tenantId: 'x-bm-tenant-id',
} as const;

export const REQUEST_ID_HEADER = 'x-request-id';
