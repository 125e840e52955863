import type { DataSource } from 'typeorm';
import type { Tenant, Tenants } from '../domain/ports/tenants.port';
import { TenantEntity } from './tenant.entity';

const toTenant = (e: TenantEntity): Tenant => ({
  id: e.id,
  name: e.name,
  plan: e.plan,
  createdAt: e.createdAt,
});

/** Tenants: created by operators, each on one plan. */
export class TenantRepository implements Tenants {
  constructor(private readonly dataSource: DataSource) {}

  async create(name: string, plan: string): Promise<Tenant> {
    const repo = this.dataSource.getRepository(TenantEntity);
    return toTenant(await repo.save(repo.create({ name, plan })));
  }

  async findById(id: number): Promise<Tenant | undefined> {
    const found = await this.dataSource.getRepository(TenantEntity).findOneBy({ id });
    return found ? toTenant(found) : undefined;
  }

  async updatePlan(id: number, plan: string): Promise<Tenant | undefined> {
    await this.dataSource.getRepository(TenantEntity).update({ id }, { plan });
    return this.findById(id);
  }
}
