/**
 * The roles of a tenant's dashboard users (and of API keys issued with one), lowest first: each may do what the
 * roles below it may. viewer reads; agent works conversations and sends; admin runs keys, webhooks, templates,
 * flows, campaigns, opt-outs and the audit log; owner also manages the team.
 */
export const ROLES = ['viewer', 'agent', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { viewer: 0, agent: 1, admin: 2, owner: 3 };

/** Whether `role` reaches `minimum`. */
export function roleAllows(role: Role, minimum: Role): boolean {
  return RANK[role] >= RANK[minimum];
}

/**
 * The lowest role allowed each /api/v1 operation, by operationId: the one table the gateway enforces for every
 * request made with a session or with a key issued with a role, and the dashboard reads to offer only what the
 * user may do. Every GET is viewer's except the audit log's.
 */
export const OPERATION_ROLES: Readonly<Record<string, Role>> = {
  // Read only.
  listMessages: 'viewer',
  getMessage: 'viewer',
  getStats: 'viewer',
  listChannelAccounts: 'viewer',
  listTemplates: 'viewer',
  listCampaigns: 'viewer',
  getCampaign: 'viewer',
  listCampaignRecipients: 'viewer',
  listOptOuts: 'viewer',
  getWebhookSettings: 'viewer',
  listWebhookDeliveries: 'viewer',
  listNotifications: 'viewer',
  listFlows: 'viewer',
  getFlow: 'viewer',
  listFlowSessions: 'viewer',
  listConversations: 'viewer',
  getConversation: 'viewer',
  listConversationMessages: 'viewer',
  streamConversationEvents: 'viewer',
  downloadMedia: 'viewer',
  listDashboardUsers: 'viewer',
  listApiKeys: 'viewer',
  exportMessages: 'viewer',
  exportCampaignRecipients: 'viewer',
  listWebhookEndpoints: 'viewer',
  // Conversations, media and sends.
  sendMessage: 'agent',
  cancelMessage: 'agent',
  updateConversation: 'agent',
  replyToConversation: 'agent',
  markConversationRead: 'agent',
  uploadMedia: 'agent',
  // The tenant's configuration.
  issueApiKey: 'admin',
  revokeApiKey: 'admin',
  putWebhookSettings: 'admin',
  rotateWebhookSecret: 'admin',
  sendWebhookTest: 'admin',
  redeliverWebhook: 'admin',
  createWebhookEndpoint: 'admin',
  updateWebhookEndpoint: 'admin',
  deleteWebhookEndpoint: 'admin',
  rotateWebhookEndpointSecret: 'admin',
  sendWebhookEndpointTest: 'admin',
  submitTemplate: 'admin',
  syncTemplates: 'admin',
  createFlow: 'admin',
  updateFlow: 'admin',
  activateFlow: 'admin',
  deactivateFlow: 'admin',
  createCampaign: 'admin',
  cancelCampaign: 'admin',
  stopCampaign: 'admin',
  retryCampaign: 'admin',
  pauseCampaign: 'admin',
  resumeCampaign: 'admin',
  addOptOut: 'admin',
  removeOptOut: 'admin',
  listAuditLog: 'admin',
  // Inviting is an admin's too, but an admin cannot make owners (checked by the use case).
  inviteTeamMember: 'admin',
  // The team itself.
  updateTeamMember: 'owner',
  removeTeamMember: 'owner',
};

/** The lowest role allowed an operation; an operation missing from the table is the owner's alone. */
export function minimumRoleFor(operationId: string): Role {
  return OPERATION_ROLES[operationId] ?? 'owner';
}
