/**
 * The public API's routes and the service that owns each: the gateway forwards by this table, answers 404/405
 * from it, and the OpenAPI document lists it. Paths use Express syntax.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type InternalService = 'messaging' | 'campaign' | 'dispatcher' | 'ingress';

export interface PublicRoute {
  method: HttpMethod;
  path: string;
  service: InternalService;
  operationId: string;
}

export const PUBLIC_ROUTES: readonly PublicRoute[] = [
  { method: 'POST', path: '/api/v1/messages/send', service: 'messaging', operationId: 'sendMessage' },
  { method: 'GET', path: '/api/v1/messages', service: 'messaging', operationId: 'listMessages' },
  { method: 'GET', path: '/api/v1/stats', service: 'messaging', operationId: 'getStats' },
  // Before `:id`: `export` is no message's id.
  {
    method: 'GET',
    path: '/api/v1/messages/export',
    service: 'messaging',
    operationId: 'exportMessages',
  },
  { method: 'GET', path: '/api/v1/messages/:id', service: 'messaging', operationId: 'getMessage' },
  { method: 'POST', path: '/api/v1/messages/:id/cancel', service: 'messaging', operationId: 'cancelMessage' },
  {
    method: 'GET',
    path: '/api/v1/channel-accounts',
    service: 'messaging',
    operationId: 'listChannelAccounts',
  },
  { method: 'GET', path: '/api/v1/templates', service: 'messaging', operationId: 'listTemplates' },
  {
    method: 'POST',
    path: '/api/v1/channel-accounts/:channelAccountId/templates/sync',
    service: 'messaging',
    operationId: 'syncTemplates',
  },
  { method: 'POST', path: '/api/v1/templates', service: 'messaging', operationId: 'submitTemplate' },
  { method: 'POST', path: '/api/v1/campaigns', service: 'campaign', operationId: 'createCampaign' },
  { method: 'GET', path: '/api/v1/campaigns', service: 'campaign', operationId: 'listCampaigns' },
  { method: 'GET', path: '/api/v1/campaigns/:id', service: 'campaign', operationId: 'getCampaign' },
  {
    method: 'GET',
    path: '/api/v1/campaigns/:id/recipients',
    service: 'campaign',
    operationId: 'listCampaignRecipients',
  },
  {
    method: 'GET',
    path: '/api/v1/campaigns/:id/recipients/export',
    service: 'campaign',
    operationId: 'exportCampaignRecipients',
  },
  {
    method: 'POST',
    path: '/api/v1/campaigns/:id/cancel',
    service: 'campaign',
    operationId: 'cancelCampaign',
  },
  { method: 'POST', path: '/api/v1/campaigns/:id/retry', service: 'campaign', operationId: 'retryCampaign' },
  { method: 'POST', path: '/api/v1/campaigns/:id/stop', service: 'campaign', operationId: 'stopCampaign' },
  { method: 'POST', path: '/api/v1/campaigns/:id/pause', service: 'campaign', operationId: 'pauseCampaign' },
  {
    method: 'POST',
    path: '/api/v1/campaigns/:id/resume',
    service: 'campaign',
    operationId: 'resumeCampaign',
  },
  { method: 'GET', path: '/api/v1/opt-outs', service: 'campaign', operationId: 'listOptOuts' },
  { method: 'POST', path: '/api/v1/opt-outs', service: 'campaign', operationId: 'addOptOut' },
  { method: 'DELETE', path: '/api/v1/opt-outs/:phone', service: 'campaign', operationId: 'removeOptOut' },
  {
    method: 'GET',
    path: '/api/v1/webhooks/settings',
    service: 'dispatcher',
    operationId: 'getWebhookSettings',
  },
  {
    method: 'PUT',
    path: '/api/v1/webhooks/settings',
    service: 'dispatcher',
    operationId: 'putWebhookSettings',
  },
  {
    method: 'POST',
    path: '/api/v1/webhooks/settings/secret',
    service: 'dispatcher',
    operationId: 'rotateWebhookSecret',
  },
  { method: 'POST', path: '/api/v1/webhooks/test', service: 'dispatcher', operationId: 'sendWebhookTest' },
  {
    method: 'GET',
    path: '/api/v1/webhooks/deliveries',
    service: 'dispatcher',
    operationId: 'listWebhookDeliveries',
  },
  {
    method: 'POST',
    path: '/api/v1/webhooks/deliveries/:id/redeliver',
    service: 'dispatcher',
    operationId: 'redeliverWebhook',
  },
  {
    method: 'GET',
    path: '/api/v1/webhooks/endpoints',
    service: 'dispatcher',
    operationId: 'listWebhookEndpoints',
  },
  {
    method: 'POST',
    path: '/api/v1/webhooks/endpoints',
    service: 'dispatcher',
    operationId: 'createWebhookEndpoint',
  },
  {
    method: 'PATCH',
    path: '/api/v1/webhooks/endpoints/:id',
    service: 'dispatcher',
    operationId: 'updateWebhookEndpoint',
  },
  {
    method: 'DELETE',
    path: '/api/v1/webhooks/endpoints/:id',
    service: 'dispatcher',
    operationId: 'deleteWebhookEndpoint',
  },
  {
    method: 'POST',
    path: '/api/v1/webhooks/endpoints/:id/secret',
    service: 'dispatcher',
    operationId: 'rotateWebhookEndpointSecret',
  },
  {
    method: 'POST',
    path: '/api/v1/webhooks/endpoints/:id/test',
    service: 'dispatcher',
    operationId: 'sendWebhookEndpointTest',
  },
  { method: 'GET', path: '/api/v1/notifications', service: 'ingress', operationId: 'listNotifications' },
  { method: 'POST', path: '/api/v1/flows', service: 'messaging', operationId: 'createFlow' },
  { method: 'GET', path: '/api/v1/flows', service: 'messaging', operationId: 'listFlows' },
  { method: 'GET', path: '/api/v1/flows/:id', service: 'messaging', operationId: 'getFlow' },
  { method: 'PUT', path: '/api/v1/flows/:id', service: 'messaging', operationId: 'updateFlow' },
  { method: 'POST', path: '/api/v1/flows/:id/activate', service: 'messaging', operationId: 'activateFlow' },
  {
    method: 'POST',
    path: '/api/v1/flows/:id/deactivate',
    service: 'messaging',
    operationId: 'deactivateFlow',
  },
  {
    method: 'GET',
    path: '/api/v1/flows/:id/sessions',
    service: 'messaging',
    operationId: 'listFlowSessions',
  },
  { method: 'GET', path: '/api/v1/conversations', service: 'messaging', operationId: 'listConversations' },
  { method: 'GET', path: '/api/v1/conversations/:id', service: 'messaging', operationId: 'getConversation' },
  {
    method: 'PATCH',
    path: '/api/v1/conversations/:id',
    service: 'messaging',
    operationId: 'updateConversation',
  },
  {
    method: 'GET',
    path: '/api/v1/conversations/:id/messages',
    service: 'messaging',
    operationId: 'listConversationMessages',
  },
  {
    method: 'POST',
    path: '/api/v1/conversations/:id/messages',
    service: 'messaging',
    operationId: 'replyToConversation',
  },
  {
    method: 'POST',
    path: '/api/v1/conversations/:id/read',
    service: 'messaging',
    operationId: 'markConversationRead',
  },
  { method: 'POST', path: '/api/v1/media', service: 'messaging', operationId: 'uploadMedia' },
  { method: 'GET', path: '/api/v1/media/:id', service: 'messaging', operationId: 'downloadMedia' },
];

/** The upstream network's endpoints: no API key (the signature or verify token is checked by the service). */
export const UPSTREAM_WEBHOOK_ROUTES: readonly PublicRoute[] = [
  { method: 'GET', path: '/api/webhooks/channel', service: 'ingress', operationId: 'verifyChannelWebhook' },
  { method: 'POST', path: '/api/webhooks/channel', service: 'ingress', operationId: 'receiveChannelWebhook' },
];

/** Operator endpoints the gateway forwards to the service that owns the data. */
export const FORWARDED_ADMIN_ROUTES: readonly PublicRoute[] = [
  {
    method: 'POST',
    path: '/admin/v1/tenants/:tenantId/channel-accounts',
    service: 'messaging',
    operationId: 'adminCreateChannelAccount',
  },
  {
    method: 'POST',
    path: '/admin/v1/channel-accounts/:channelAccountId/templates/sync',
    service: 'messaging',
    operationId: 'adminSyncTemplates',
  },
  {
    method: 'GET',
    path: '/admin/v1/inbound-events',
    service: 'ingress',
    operationId: 'adminListInboundEvents',
  },
  {
    method: 'GET',
    path: '/admin/v1/inbound-events/:id',
    service: 'ingress',
    operationId: 'adminGetInboundEvent',
  },
  {
    method: 'POST',
    path: '/admin/v1/inbound-events/:id/reprocess',
    service: 'ingress',
    operationId: 'adminReprocessInboundEvent',
  },
];
