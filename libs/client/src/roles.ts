import { MINIMUM_ROLES } from './generated/roles';

/** A dashboard user's role (or a key's), lowest first. */
export type Role = 'viewer' | 'agent' | 'admin' | 'owner';
export type RoleOperation = keyof typeof MINIMUM_ROLES;

const RANK: Record<Role, number> = { viewer: 0, agent: 1, admin: 2, owner: 3 };

/** Whether `role` may call the operation . */
export function roleMay(role: Role, operationId: RoleOperation): boolean {
  const minimum: Role = MINIMUM_ROLES[operationId];
  return RANK[role] >= RANK[minimum];
}

/** The roles `role` may grant (to a colleague or a key): its own and those below. */
export function rolesUpTo(role: Role): Role[] {
  return (Object.keys(RANK) as Role[]).filter((r) => RANK[r] <= RANK[role]);
}
