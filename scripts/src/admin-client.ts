const limitQuery = (limit?: string) => (limit === undefined ? '' : `?limit=${encodeURIComponent(limit)}`);

/** A small client of the operator API (/admin/v1), shared by the CLI and the one-command start. */
export class AdminClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(new URL(path, this.baseUrl), {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as {
      success: boolean;
      data?: T;
      error?: { code: string; message: string };
    };
    if (!json.success)
      throw new Error(`${method} ${path}: ${res.status} ${json.error?.code}: ${json.error?.message}`);
    return json.data as T;
  }

  createTenant(name: string, plan?: string) {
    return this.call<{ tenant_id: number; name: string; plan: string }>('POST', '/admin/v1/tenants', {
      name,
      plan,
    });
  }

  setPlan(tenantId: number, plan: string) {
    return this.call<{ tenant_id: number; plan: string }>('PATCH', `/admin/v1/tenants/${tenantId}`, { plan });
  }

  issueKey(tenantId: number) {
    return this.call<{ key_id: string; api_key: string }>('POST', `/admin/v1/tenants/${tenantId}/api-keys`);
  }

  inviteUser(tenantId: number, email: string) {
    return this.call<{ user_id: string; email: string; invite_url: string; invite_expires_at: string }>(
      'POST',
      `/admin/v1/tenants/${tenantId}/users`,
      { email },
    );
  }

  /** Spends an invite link as the dashboard's page would (same origin), setting the user's password. */
  async setPassword(inviteUrl: string, password: string): Promise<void> {
    const token = new URL(inviteUrl).hash.replace(/^#token=/, '');
    const res = await fetch(new URL('/api/auth/set-password', this.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: new URL(this.baseUrl).origin },
      body: JSON.stringify({ token, password }),
    });
    if (!res.ok) throw new Error(`set-password: ${res.status} ${await res.text()}`);
  }

  revokeKey(keyId: string) {
    return this.call<{ key_id: string }>('DELETE', `/admin/v1/api-keys/${keyId}`);
  }

  connectAccount(tenantId: number, account: Record<string, unknown>) {
    return this.call<{ channel_account_id: string }>(
      'POST',
      `/admin/v1/tenants/${tenantId}/channel-accounts`,
      account,
    );
  }

  listDeadLetterQueues() {
    return this.call<{ queues: Array<{ queue: string; dead_letters: number }> }>('GET', '/admin/v1/dead-letters');
  }

  showDeadLetters(queue: string, limit?: string) {
    return this.call<unknown>('GET', `/admin/v1/dead-letters/${encodeURIComponent(queue)}${limitQuery(limit)}`);
  }

  replayDeadLetters(queue: string, limit?: string) {
    return this.call<{ replayed: number; remaining: number }>(
      'POST',
      `/admin/v1/dead-letters/${encodeURIComponent(queue)}/replay${limitQuery(limit)}`,
    );
  }

  syncTemplates(channelAccountId: string) {
    return this.call<unknown>('POST', `/admin/v1/channel-accounts/${channelAccountId}/templates/sync`);
  }
}
