import Joi from 'joi';
import type { ErrorCode } from '../error-codes';
import {
  createChannelAccountSchema,
  createTenantSchema,
  replayDeadLettersQuerySchema,
  showDeadLettersQuerySchema,
  updateTenantSchema,
} from '../schemas/admin';
import {
  inviteDashboardUserSchema,
  passwordResetRequestSchema,
  resetPasswordSchema,
  setPasswordSchema,
  signInSchema,
} from '../schemas/dashboard-auth';
import {
  auditLogQuerySchema,
  inviteTeamMemberSchema,
  issueApiKeySchema,
  updateTeamMemberSchema,
} from '../schemas/team';
import { campaignRecipientsQuerySchema, RECIPIENT_EXPORT_COLUMNS } from '../schemas/campaign-recipients';
import { paginationQuerySchema } from '../schemas/common';
import { createCampaignDocumentSchema, createCampaignQuerySchema } from '../schemas/campaigns';
import {
  exportMessagesQuerySchema,
  listMessagesQuerySchema,
  MESSAGE_EXPORT_COLUMNS,
} from '../schemas/message-logs';
import { sendMessageSchema } from '../schemas/messages';
import { listCampaignsQuerySchema } from '../schemas/campaign-list';
import { addOptOutSchema, listOptOutsQuerySchema } from '../schemas/opt-outs';
import { listFlowSessionsQuerySchema, listFlowsQuerySchema, saveFlowSchema } from '../schemas/flows';
import { listInboundEventsQuerySchema } from '../schemas/inbound-audit';
import { mediaQuerySchema, mediaUploadFieldsSchema } from '../schemas/media';
import {
  conversationMessagesQuerySchema,
  conversationReplySchema,
  listConversationsQuerySchema,
  updateConversationSchema,
} from '../schemas/conversations';
import { listTemplatesQuerySchema, submitTemplateSchema } from '../schemas/templates';
import {
  createWebhookEndpointSchema,
  updateWebhookEndpointSchema,
  webhookDeliveriesQuerySchema,
  webhookSettingsSchema,
} from '../schemas/webhooks';

/** apiKey: an API key or a dashboard session (with its CSRF token); session: the dashboard's cookie only. */
export type Auth = 'apiKey' | 'admin' | 'none' | 'upstream' | 'session';

/** What the document says of one operation beyond its method and path (those come from the route tables). */
export interface OperationSpec {
  summary: string;
  tag: string;
  auth: Auth;
  body?: Joi.Schema;
  /** The body may be left out (an operation that took none before, and still works without one). */
  bodyOptional?: boolean;
  query?: Joi.ObjectSchema;
  status: number;
  /** Name of the `data` schema in components, or null for no JSON body (the verification echo). */
  data: string | null;
  errors: ErrorCode[];
  idempotent?: boolean;
  /** What the success's Set-Cookie header does (the dashboard's session cookie), when it sets one. */
  setCookie?: string;
  /**
   * A server-sent event stream (`text/event-stream`) instead of a JSON envelope: each event's name and the
   * components schema of its `data`.
   */
  eventStream?: Record<string, string>;
  /**
   * A multipart/form-data body instead of JSON: these fields, then a `file` part (the file's bytes with their
   * content type).
   */
  multipart?: Joi.ObjectSchema;
  /** The success is the bytes of a file (any content type, its length given) instead of a JSON envelope. */
  binary?: boolean;
  /** The success is a streamed CSV download (`text/csv`, an attachment) with these columns, not a JSON envelope. */
  csv?: readonly string[];
  /** Other successful answers of the same operation (a dry run's plan beside the create's 202). */
  alternatives?: Array<{ status: number; data: string; description: string }>;
}

/** The gateway's own routes, in the route-table shape (Express paths). */
export const GATEWAY_ROUTES = [
  { method: 'GET', path: '/api/health', operationId: 'getHealth' },
  { method: 'POST', path: '/admin/v1/tenants', operationId: 'adminCreateTenant' },
  { method: 'GET', path: '/admin/v1/tenants/:tenantId', operationId: 'adminGetTenant' },
  { method: 'PATCH', path: '/admin/v1/tenants/:tenantId', operationId: 'adminUpdateTenant' },
  { method: 'POST', path: '/admin/v1/tenants/:tenantId/api-keys', operationId: 'adminIssueApiKey' },
  { method: 'DELETE', path: '/admin/v1/api-keys/:keyId', operationId: 'adminRevokeApiKey' },
  { method: 'GET', path: '/admin/v1/dead-letters', operationId: 'adminListDeadLetterQueues' },
  { method: 'GET', path: '/admin/v1/dead-letters/:queue', operationId: 'adminShowDeadLetters' },
  { method: 'POST', path: '/admin/v1/dead-letters/:queue/replay', operationId: 'adminReplayDeadLetters' },
  { method: 'POST', path: '/admin/v1/tenants/:tenantId/users', operationId: 'adminInviteDashboardUser' },
  { method: 'POST', path: '/api/auth/set-password', operationId: 'setDashboardPassword' },
  { method: 'POST', path: '/api/auth/sign-in', operationId: 'signIn' },
  { method: 'POST', path: '/api/auth/password-reset', operationId: 'requestPasswordReset' },
  { method: 'POST', path: '/api/auth/reset-password', operationId: 'resetPassword' },
  { method: 'GET', path: '/api/auth/session', operationId: 'getDashboardSession' },
  { method: 'POST', path: '/api/auth/sign-out', operationId: 'signOut' },
  { method: 'GET', path: '/api/v1/api-keys', operationId: 'listApiKeys' },
  { method: 'POST', path: '/api/v1/api-keys', operationId: 'issueApiKey' },
  { method: 'DELETE', path: '/api/v1/api-keys/:keyId', operationId: 'revokeApiKey' },
  { method: 'GET', path: '/api/v1/users', operationId: 'listDashboardUsers' },
  { method: 'POST', path: '/api/v1/users', operationId: 'inviteTeamMember' },
  { method: 'PATCH', path: '/api/v1/users/:userId', operationId: 'updateTeamMember' },
  { method: 'DELETE', path: '/api/v1/users/:userId', operationId: 'removeTeamMember' },
  { method: 'GET', path: '/api/v1/audit-log', operationId: 'listAuditLog' },
  // Before the conversation routes of the public table: `events` is no conversation's id.
  { method: 'GET', path: '/api/v1/conversations/events', operationId: 'streamConversationEvents' },
] as const;

const MSG_NF: ErrorCode[] = ['MESSAGE_NOT_FOUND'];
const CAMP_NF: ErrorCode[] = ['CAMPAIGN_NOT_FOUND'];
const TEMPLATE_SEND: ErrorCode[] = [
  'NO_ACTIVE_ACCOUNT',
  'OUTSIDE_SERVICE_WINDOW',
  'TEMPLATE_NOT_FOUND',
  'TEMPLATE_NOT_APPROVED',
  'TEMPLATE_PAUSED',
  'TEMPLATE_PARAMETER_MISMATCH',
  'TEMPLATE_HEADER_MEDIA_REQUIRED',
  'RECIPIENT_OPTED_OUT',
];

// The query webhook-ingress validates for its notification list.
const notificationsQuerySchema = Joi.object({ ...paginationQuerySchema });

const api = (spec: Omit<OperationSpec, 'auth'>): OperationSpec => ({ ...spec, auth: 'apiKey' });
const admin = (spec: Omit<OperationSpec, 'auth' | 'tag'>): OperationSpec => ({
  ...spec,
  auth: 'admin',
  tag: 'Operator',
});

export const OPERATIONS: Record<string, OperationSpec> = {
  sendMessage: api({
    summary: 'Send a text or template message',
    tag: 'Messages',
    body: sendMessageSchema,
    status: 202,
    data: 'SendAcknowledgement',
    errors: [...TEMPLATE_SEND, 'IDEMPOTENCY_KEY_CONFLICT', 'MESSAGING_TIER_LIMIT_EXCEEDED', 'UPSTREAM_ERROR'],
    idempotent: true,
  }),
  listMessages: api({
    summary: 'List sent messages, newest first',
    tag: 'Messages',
    query: listMessagesQuerySchema,
    status: 200,
    data: 'MessageList',
    errors: [],
  }),
  exportMessages: api({
    summary:
      "Download the tenant's messages matching the list's filters as CSV, newest first, streamed as it is read " +
      '(no pages); content is a text, or a template with its name, language and parameters (beyond the published API)',
    tag: 'Messages',
    query: exportMessagesQuerySchema,
    status: 200,
    data: null,
    csv: MESSAGE_EXPORT_COLUMNS,
    errors: [],
  }),
  getMessage: api({
    summary: 'Get a message log',
    tag: 'Messages',
    status: 200,
    data: 'MessageLog',
    errors: MSG_NF,
  }),
  cancelMessage: api({
    summary: 'Cancel a scheduled message',
    tag: 'Messages',
    status: 200,
    data: 'MessageLog',
    errors: [...MSG_NF, 'MESSAGE_NOT_CANCELLABLE'],
  }),
  syncTemplates: api({
    summary:
      "Fetch one of the tenant's numbers' templates from the upstream network again (the dashboard's Sync)",
    tag: 'Templates',
    status: 200,
    data: 'SyncedTemplates',
    errors: ['CHANNEL_ACCOUNT_NOT_FOUND', 'UPSTREAM_ERROR'],
  }),
  getStats: api({
    summary:
      'Overview statistics: messages by status per hour (24 h) and per day (30 d), delivery and read rates, ' +
      'failures by error; read from counters kept as messages change status, never a scan of the message logs',
    tag: 'Messages',
    status: 200,
    data: 'MessageStats',
    errors: [],
  }),
  listChannelAccounts: api({
    summary:
      "The tenant's sending numbers: API ID, number, status, tier, quality, webhooks, today's tier capacity",
    tag: 'Numbers',
    status: 200,
    data: 'ChannelAccountList',
    errors: [],
  }),
  listTemplates: api({
    summary: "List the account's templates",
    tag: 'Templates',
    query: listTemplatesQuerySchema,
    status: 200,
    data: 'TemplateList',
    errors: [],
  }),
  submitTemplate: api({
    summary:
      'Submit a template to the upstream network, checked first as the upstream reviews it (422 ' +
      'VALIDATION_ERROR per field: variables, samples, header media sample, buttons, a name taken in the language)',
    tag: 'Templates',
    body: submitTemplateSchema,
    status: 201,
    data: 'Template',
    errors: ['CHANNEL_ACCOUNT_NOT_FOUND', 'NO_ACTIVE_ACCOUNT', 'CONFLICT', 'UPSTREAM_ERROR'],
  }),
  createCampaign: api({
    summary:
      'Create a bulk template campaign (with ?dry_run=true: 200 with the plan - capacity, parts, expected ' +
      'finish, estimated cost - and nothing created)',
    tag: 'Campaigns',
    query: createCampaignQuerySchema,
    body: createCampaignDocumentSchema,
    status: 202,
    data: 'CampaignCreated',
    alternatives: [
      { status: 200, data: 'CampaignPlan', description: 'With ?dry_run=true: the plan; nothing is created' },
    ],
    errors: [...TEMPLATE_SEND, 'IDEMPOTENCY_KEY_CONFLICT', 'MESSAGING_TIER_LIMIT_EXCEEDED'],
    idempotent: true,
  }),
  listCampaigns: api({
    summary:
      'List campaigns, newest first (or the parts of one split campaign, in order), with their progress',
    tag: 'Campaigns',
    query: listCampaignsQuerySchema,
    status: 200,
    data: 'CampaignList',
    errors: [],
  }),
  getCampaign: api({
    summary: 'Get a campaign, with its estimated cost and what its messages cost so far',
    tag: 'Campaigns',
    status: 200,
    data: 'Campaign',
    errors: CAMP_NF,
  }),
  listCampaignRecipients: api({
    summary: "List a campaign's recipients",
    tag: 'Campaigns',
    query: campaignRecipientsQuerySchema,
    status: 200,
    data: 'CampaignRecipientList',
    errors: CAMP_NF,
  }),
  exportCampaignRecipients: api({
    summary: "Download a campaign's recipients as CSV, in the order they were added, streamed as it is read",
    tag: 'Campaigns',
    status: 200,
    data: null,
    csv: RECIPIENT_EXPORT_COLUMNS,
    errors: CAMP_NF,
  }),
  stopCampaign: api({
    summary:
      "Stop a processing, throttled or paused campaign mid-send (beyond the published API; the console's Cancel " +
      'campaign): recipients not yet handed to messaging are not sent and fail with CAMPAIGN_STOPPED, those ' +
      'handed over finish; the campaign ends `cancelled` with its campaign.completed webhook',
    tag: 'Campaigns',
    status: 200,
    data: 'Campaign',
    errors: [...CAMP_NF, 'CAMPAIGN_NOT_STOPPABLE'],
  }),
  cancelCampaign: api({
    summary: 'Cancel a campaign that has not started',
    tag: 'Campaigns',
    status: 200,
    data: 'CampaignCancelled',
    errors: [...CAMP_NF, 'CAMPAIGN_NOT_CANCELLABLE'],
  }),
  retryCampaign: api({
    summary: 'Send again to the failed recipients of a completed or failed campaign',
    tag: 'Campaigns',
    status: 202,
    data: 'CampaignRetry',
    errors: [...CAMP_NF, 'CAMPAIGN_NOT_RETRYABLE', 'MESSAGING_TIER_LIMIT_EXCEEDED'],
  }),
  pauseCampaign: api({
    summary: 'Pause a processing or throttled campaign (beyond the published API)',
    tag: 'Campaigns',
    status: 200,
    data: 'Campaign',
    errors: [...CAMP_NF, 'CAMPAIGN_NOT_PAUSABLE'],
  }),
  resumeCampaign: api({
    summary: 'Resume a paused campaign (beyond the published API)',
    tag: 'Campaigns',
    status: 200,
    data: 'Campaign',
    errors: [...CAMP_NF, 'CAMPAIGN_NOT_RESUMABLE'],
  }),
  listOptOuts: api({
    summary: 'List opted-out contacts',
    tag: 'Opt-outs',
    query: listOptOutsQuerySchema,
    status: 200,
    data: 'OptOutList',
    errors: [],
  }),
  addOptOut: api({
    summary: 'Add an opted-out contact',
    tag: 'Opt-outs',
    body: addOptOutSchema,
    status: 201,
    data: 'OptOut',
    alternatives: [{ status: 200, data: 'OptOut', description: 'Already opted out: the existing entry' }],
    errors: [],
  }),
  removeOptOut: api({
    summary: 'Remove an opted-out contact (the path names a phone or a user id)',
    tag: 'Opt-outs',
    status: 200,
    data: 'OptOutDeleted',
    errors: ['OPT_OUT_NOT_FOUND', 'VALIDATION_ERROR'],
  }),
  getWebhookSettings: api({
    summary: 'Get the outbound webhook settings',
    tag: 'Webhooks',
    status: 200,
    data: 'WebhookSettings',
    errors: [],
  }),
  putWebhookSettings: api({
    summary: 'Replace the outbound webhook settings',
    tag: 'Webhooks',
    body: webhookSettingsSchema,
    status: 200,
    data: 'WebhookSettings',
    errors: [],
  }),
  rotateWebhookSecret: api({
    summary: 'Generate a new signing secret (returned once)',
    tag: 'Webhooks',
    status: 200,
    data: 'WebhookSecret',
    errors: [],
  }),
  sendWebhookTest: api({
    summary: 'Send a webhook.test event now (422 VALIDATION_ERROR on `url` while no webhook URL is set)',
    tag: 'Webhooks',
    status: 202,
    data: 'WebhookTest',
    errors: ['VALIDATION_ERROR'],
  }),
  listWebhookDeliveries: api({
    summary: 'The webhook health monitor: logged deliveries and their attempts',
    tag: 'Webhooks',
    query: webhookDeliveriesQuerySchema,
    status: 200,
    data: 'WebhookDeliveryList',
    errors: [],
  }),
  redeliverWebhook: api({
    summary: 'Send a logged delivery again',
    tag: 'Webhooks',
    status: 202,
    data: 'WebhookRedelivery',
    errors: ['DELIVERY_NOT_FOUND'],
  }),
  listWebhookEndpoints: api({
    summary: "The tenant's webhook endpoints, the default (the settings') first",
    tag: 'Webhooks',
    status: 200,
    data: 'WebhookEndpointList',
    errors: [],
  }),
  createWebhookEndpoint: api({
    summary: 'Add a webhook endpoint with its own event filter; its signing secret is answered this once',
    tag: 'Webhooks',
    body: createWebhookEndpointSchema,
    status: 201,
    data: 'WebhookEndpointCreated',
    errors: ['VALIDATION_ERROR', 'WEBHOOK_ENDPOINT_LIMIT_REACHED'],
  }),
  updateWebhookEndpoint: api({
    summary: "Change a webhook endpoint's URL, event filter, description or enabled flag",
    tag: 'Webhooks',
    body: updateWebhookEndpointSchema,
    status: 200,
    data: 'WebhookEndpoint',
    errors: ['VALIDATION_ERROR', 'WEBHOOK_ENDPOINT_NOT_FOUND'],
  }),
  deleteWebhookEndpoint: api({
    summary: 'Remove a webhook endpoint (its pending deliveries fail; the oldest other becomes the default)',
    tag: 'Webhooks',
    status: 200,
    data: 'WebhookEndpointDeleted',
    errors: ['WEBHOOK_ENDPOINT_NOT_FOUND'],
  }),
  rotateWebhookEndpointSecret: api({
    summary:
      'Generate a new signing secret for one endpoint (returned once; the old one signs beside it 24 h)',
    tag: 'Webhooks',
    status: 200,
    data: 'WebhookSecret',
    errors: ['WEBHOOK_ENDPOINT_NOT_FOUND'],
  }),
  sendWebhookEndpointTest: api({
    summary: 'Send a webhook.test event to one endpoint now (422 VALIDATION_ERROR while it is disabled)',
    tag: 'Webhooks',
    status: 202,
    data: 'WebhookTest',
    errors: ['VALIDATION_ERROR', 'WEBHOOK_ENDPOINT_NOT_FOUND'],
  }),
  listNotifications: api({
    summary: 'Notifications: live-chat requests and template reviews',
    tag: 'Notifications',
    query: notificationsQuerySchema,
    status: 200,
    data: 'NotificationList',
    errors: [],
  }),
  createFlow: api({
    summary: 'Create a conversation flow (inactive until activated)',
    tag: 'Flows',
    body: saveFlowSchema,
    status: 201,
    data: 'Flow',
    errors: ['NO_ACTIVE_ACCOUNT'],
  }),
  listFlows: api({
    summary: 'List conversation flows',
    tag: 'Flows',
    query: listFlowsQuerySchema,
    status: 200,
    data: 'FlowList',
    errors: [],
  }),
  getFlow: api({
    summary: 'Get a flow',
    tag: 'Flows',
    status: 200,
    data: 'Flow',
    errors: ['FLOW_NOT_FOUND'],
  }),
  updateFlow: api({
    summary: 'Replace a flow (a new version; running sessions finish on theirs)',
    tag: 'Flows',
    body: saveFlowSchema,
    status: 200,
    data: 'Flow',
    errors: ['FLOW_NOT_FOUND', 'NO_ACTIVE_ACCOUNT'],
  }),
  activateFlow: api({
    summary: 'Activate a flow: its trigger starts sessions',
    tag: 'Flows',
    status: 200,
    data: 'Flow',
    errors: ['FLOW_NOT_FOUND'],
  }),
  deactivateFlow: api({
    summary: 'Deactivate a flow: it starts no session (running ones finish)',
    tag: 'Flows',
    status: 200,
    data: 'Flow',
    errors: ['FLOW_NOT_FOUND'],
  }),
  listFlowSessions: api({
    summary: "A flow's sessions, newest first",
    tag: 'Flows',
    query: listFlowSessionsQuerySchema,
    status: 200,
    data: 'FlowSessionList',
    errors: ['FLOW_NOT_FOUND'],
  }),
  listConversations: api({
    summary: 'The live-chat inbox: conversations, newest activity first',
    tag: 'Conversations',
    query: listConversationsQuerySchema,
    status: 200,
    data: 'ConversationList',
    errors: [],
  }),
  getConversation: api({
    summary: 'A conversation: its customer, service window, status, assignee and unread count',
    tag: 'Conversations',
    status: 200,
    data: 'Conversation',
    errors: ['NOT_FOUND'],
  }),
  updateConversation: api({
    summary: "Open or close a conversation, or assign it to one of the tenant's dashboard users",
    tag: 'Conversations',
    body: updateConversationSchema,
    status: 200,
    data: 'Conversation',
    errors: ['NOT_FOUND'],
  }),
  listConversationMessages: api({
    summary: "A conversation's messages in both directions, oldest first, a page back at a time",
    tag: 'Conversations',
    query: conversationMessagesQuerySchema,
    status: 200,
    data: 'ConversationMessages',
    errors: ['NOT_FOUND'],
  }),
  replyToConversation: api({
    summary: "Reply to the conversation's customer: a text inside the service window, a template at any time",
    tag: 'Conversations',
    body: conversationReplySchema,
    status: 202,
    data: 'SendAcknowledgement',
    errors: ['NOT_FOUND', ...TEMPLATE_SEND, 'IDEMPOTENCY_KEY_CONFLICT', 'MESSAGING_TIER_LIMIT_EXCEEDED'],
    idempotent: true,
  }),
  streamConversationEvents: api({
    summary:
      "The tenant's inbox as it changes: a server-sent event stream of conversations' messages and changes",
    tag: 'Conversations',
    status: 200,
    data: null,
    eventStream: { message: 'InboxMessageEvent', conversation: 'InboxConversationEvent' },
    errors: [],
  }),
  markConversationRead: api({
    summary: "Mark a conversation read and send the upstream read receipt for the customer's latest message",
    tag: 'Conversations',
    status: 200,
    data: 'ConversationRead',
    errors: ['NOT_FOUND'],
  }),
  downloadMedia: api({
    summary:
      "Stream an inbound media item (a customer's image, video, audio, document or sticker) from the upstream " +
      "network with the channel account's token, in the upstream's content type, while the upstream keeps it",
    tag: 'Conversations',
    query: mediaQuerySchema,
    status: 200,
    data: null,
    binary: true,
    errors: ['CHANNEL_ACCOUNT_NOT_FOUND', 'MEDIA_EXPIRED', 'UPSTREAM_ERROR'],
  }),
  uploadMedia: api({
    summary:
      "Upload a file to the upstream network for one of the tenant's numbers (multipart: `channel_account_id`, " +
      'then `file`); the answer is its media id, for sends and template header components. At most 5 MB for ' +
      'an image, 16 MB for video and audio, 100 MB for a document (any other type)',
    tag: 'Conversations',
    multipart: mediaUploadFieldsSchema,
    status: 201,
    data: 'MediaUploaded',
    errors: [
      'CHANNEL_ACCOUNT_NOT_FOUND',
      'VALIDATION_ERROR',
      'UNSUPPORTED_MEDIA_TYPE',
      'PAYLOAD_TOO_LARGE',
      'UPSTREAM_ERROR',
    ],
  }),
  verifyChannelWebhook: {
    summary: "The upstream network's verification GET: echoes hub.challenge as text/plain",
    tag: 'Upstream network',
    auth: 'none',
    status: 200,
    data: null,
    errors: ['VERIFICATION_FAILED'],
  },
  receiveChannelWebhook: {
    summary: "The upstream network's signed webhooks (X-Hub-Signature-256 over the raw body)",
    tag: 'Upstream network',
    auth: 'upstream',
    status: 200,
    data: 'Received',
    errors: ['INVALID_SIGNATURE', 'PAYLOAD_TOO_LARGE', 'INVALID_JSON', 'SERVICE_UNAVAILABLE'],
  },
  getHealth: {
    summary: 'Health of the gateway and its dependencies',
    tag: 'Health',
    auth: 'none',
    status: 200,
    data: 'HealthReport',
    errors: ['SERVICE_DEGRADED'],
  },
  adminCreateTenant: admin({
    summary: 'Create a tenant',
    body: createTenantSchema,
    status: 201,
    data: 'Tenant',
    errors: [],
  }),
  adminGetTenant: admin({
    summary: 'Get a tenant',
    status: 200,
    data: 'Tenant',
    errors: ['TENANT_NOT_FOUND'],
  }),
  adminUpdateTenant: admin({
    summary: "Change a tenant's plan",
    body: updateTenantSchema,
    status: 200,
    data: 'Tenant',
    errors: ['TENANT_NOT_FOUND'],
  }),
  adminIssueApiKey: admin({
    summary: 'Issue an API key (shown this once)',
    status: 201,
    data: 'ApiKeyIssued',
    errors: ['TENANT_NOT_FOUND'],
  }),
  adminRevokeApiKey: admin({
    summary: 'Revoke an API key',
    status: 200,
    data: 'ApiKeyRevoked',
    errors: ['API_KEY_NOT_FOUND'],
  }),
  adminListDeadLetterQueues: admin({
    summary: 'Every consumer queue and the number of messages parked in its dead-letter queue',
    status: 200,
    data: 'DeadLetterQueueList',
    errors: [],
  }),
  adminShowDeadLetters: admin({
    summary: 'The first parked messages of a dead-letter queue, with why they failed (they stay parked)',
    query: showDeadLettersQuerySchema,
    status: 200,
    data: 'DeadLetters',
    errors: ['QUEUE_NOT_FOUND'],
  }),
  adminReplayDeadLetters: admin({
    summary:
      "Move parked messages back to their consumer's queue with a fresh attempt count (the consumers are idempotent)",
    query: replayDeadLettersQuerySchema,
    status: 200,
    data: 'DeadLettersReplayed',
    errors: ['QUEUE_NOT_FOUND'],
  }),
  adminCreateChannelAccount: admin({
    summary: 'Connect a channel account; its templates are fetched before the answer',
    body: createChannelAccountSchema,
    status: 201,
    data: 'ChannelAccount',
    errors: ['TENANT_NOT_FOUND', 'CONFLICT', 'UPSTREAM_ERROR'],
  }),
  adminSyncTemplates: admin({
    summary: "Fetch the account's templates from the upstream network",
    status: 200,
    data: 'SyncedTemplates',
    errors: ['CHANNEL_ACCOUNT_NOT_FOUND', 'UPSTREAM_ERROR'],
  }),
  adminListInboundEvents: admin({
    summary: 'The inbound webhook audit log',
    query: listInboundEventsQuerySchema,
    status: 200,
    data: 'InboundEventList',
    errors: [],
  }),
  adminGetInboundEvent: admin({
    summary: 'One inbound delivery as received, and what became of each item',
    status: 200,
    data: 'InboundEventDetail',
    errors: ['NOT_FOUND'],
  }),
  adminReprocessInboundEvent: admin({
    summary: 'Split an inbound delivery again (safe to repeat); answers its log entry',
    status: 200,
    data: 'InboundEvent',
    errors: ['NOT_FOUND'],
  }),
  adminInviteDashboardUser: admin({
    summary:
      'Invite a dashboard user of the tenant: a single-use link valid 24 h (inviting again replaces the link)',
    body: inviteDashboardUserSchema,
    status: 201,
    data: 'DashboardInvite',
    errors: ['TENANT_NOT_FOUND', 'CONFLICT'],
  }),
  setDashboardPassword: {
    summary:
      "Set a dashboard user's password with the token of their invite link (once), and sign them in: the user's other sessions end",
    tag: 'Dashboard sessions',
    auth: 'none',
    body: setPasswordSchema,
    status: 200,
    data: 'DashboardPasswordSet',
    errors: ['NOT_FOUND', 'INVITE_EXPIRED', 'CSRF_FAILED'],
    setCookie:
      '`bm_session=<new session id>; Path=/; Max-Age=43200; HttpOnly; SameSite=Lax`, and `Secure` over HTTPS',
  },
  requestPasswordReset: {
    summary:
      'Ask for a password reset link by mail (valid 1 h, single use, a newer one voids it); the answer is the same whether or not the address belongs to a user',
    tag: 'Dashboard sessions',
    auth: 'none',
    body: passwordResetRequestSchema,
    status: 202,
    data: 'PasswordResetRequested',
    errors: ['RATE_LIMIT_EXCEEDED', 'CSRF_FAILED'],
  },
  resetPassword: {
    summary:
      "Set a new password with the token of a reset link (once) and sign in: the user's other sessions end",
    tag: 'Dashboard sessions',
    auth: 'none',
    body: resetPasswordSchema,
    status: 200,
    data: 'DashboardSession',
    errors: ['NOT_FOUND', 'RESET_LINK_EXPIRED', 'CSRF_FAILED'],
    setCookie:
      '`bm_session=<new session id>; Path=/; Max-Age=43200; HttpOnly; SameSite=Lax`, and `Secure` over HTTPS',
  },
  signIn: {
    summary:
      'Sign in to the dashboard: sets the HttpOnly session cookie `bm_session` and answers the CSRF token',
    tag: 'Dashboard sessions',
    auth: 'none',
    body: signInSchema,
    status: 200,
    data: 'DashboardSession',
    errors: ['INVALID_CREDENTIALS', 'RATE_LIMIT_EXCEEDED', 'CSRF_FAILED'],
    setCookie:
      '`bm_session=<new session id>; Path=/; Max-Age=43200; HttpOnly; SameSite=Lax`, and `Secure` over HTTPS',
  },
  getDashboardSession: {
    summary: "The signed-in user, the session's CSRF token and when the session ends",
    tag: 'Dashboard sessions',
    auth: 'session',
    status: 200,
    data: 'DashboardSession',
    errors: [],
  },
  signOut: {
    summary: 'Sign out: the session is revoked and its cookie cleared',
    tag: 'Dashboard sessions',
    auth: 'session',
    status: 200,
    data: 'SignedOut',
    errors: [],
    setCookie: '`bm_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`: the cookie is cleared',
  },
  listDashboardUsers: api({
    summary: "The tenant's dashboard users (the colleagues a conversation can be assigned to), oldest first",
    tag: 'Team',
    status: 200,
    data: 'TeamMemberList',
    errors: [],
  }),
  listApiKeys: api({
    summary: "The tenant's API keys, newest first (never the keys themselves)",
    tag: 'API keys',
    status: 200,
    data: 'ApiKeyList',
    errors: [],
  }),
  issueApiKey: api({
    summary:
      'Issue an API key for the tenant (shown this once), optionally named and with a role narrower than ' +
      "full access; a session's key gets the session's role unless a lower one is asked (never a higher one)",
    tag: 'API keys',
    body: issueApiKeySchema,
    bodyOptional: true,
    status: 201,
    data: 'ApiKeyIssued',
    errors: [],
  }),
  revokeApiKey: api({
    summary: "Revoke one of the tenant's API keys; it stops working at once",
    tag: 'API keys',
    status: 200,
    data: 'ApiKeyRevoked',
    errors: ['API_KEY_NOT_FOUND'],
  }),
  inviteTeamMember: api({
    summary:
      'Invite a colleague with a role (owner and admin; an admin cannot make owners): a single-use link valid ' +
      '24 h, in this answer only',
    tag: 'Team',
    body: inviteTeamMemberSchema,
    status: 201,
    data: 'TeamInvite',
    errors: ['CONFLICT'],
  }),
  updateTeamMember: api({
    summary: "Change a colleague's role (owner only); the last owner cannot be demoted",
    tag: 'Team',
    body: updateTeamMemberSchema,
    status: 200,
    data: 'TeamMember',
    errors: ['LAST_OWNER'],
  }),
  removeTeamMember: api({
    summary: 'Remove a colleague (owner only): their sessions end at once; the last owner cannot be removed',
    tag: 'Team',
    status: 200,
    data: 'TeamMemberRemoved',
    errors: ['LAST_OWNER'],
  }),
  listAuditLog: api({
    summary:
      'Every state-changing request of the tenant, by a dashboard user or an API key, newest first (admin and owner)',
    tag: 'Team',
    query: auditLogQuerySchema,
    status: 200,
    data: 'AuditLogList',
    errors: [],
  }),
};
