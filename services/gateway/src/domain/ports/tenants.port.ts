export interface Tenant {
  id: number;
  name: string;
  plan: string;
  createdAt: Date;
}

/** Tenants: created by operators, each on one plan. */
export interface Tenants {
  create(name: string, plan: string): Promise<Tenant>;
  findById(id: number): Promise<Tenant | undefined>;
  /** The tenant as updated; undefined when no tenant has that id. */
  updatePlan(id: number, plan: string): Promise<Tenant | undefined>;
}
