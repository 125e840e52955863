const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** POST, PUT, PATCH and DELETE change state (they need the CSRF token and go to the audit log); the rest read. */
export const changesState = (method: string): boolean => STATE_CHANGING.has(method);
