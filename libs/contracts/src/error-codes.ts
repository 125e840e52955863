/**
 * Every error code the API answers with: those of the published API and those CONTRACT.md adds.
 * The HTTP status belongs to the code, so a code can never travel with the wrong status.
 */
export const ERROR_CODES = {
  INVALID_JSON: { status: 400, message: 'The request body is not valid JSON' },
  BAD_REQUEST: { status: 400, message: 'The request is not valid HTTP' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request headers are too large' },
  INVALID_API_KEY: { status: 401, message: 'The API key is invalid' },
  INVALID_CREDENTIALS: { status: 401, message: 'The email or password is wrong' },
  SESSION_EXPIRED: { status: 401, message: 'The dashboard session has ended; sign in again' },
  INVALID_SIGNATURE: { status: 401, message: 'The request signature is missing or invalid' },
  TENANT_FORBIDDEN: { status: 403, message: 'The API key may not act for this tenant' },
  CSRF_FAILED: {
    status: 403,
    message: 'A state-changing request with the session cookie needs its CSRF token and the same origin',
  },
  FORBIDDEN_FOR_ROLE: { status: 403, message: 'Your role may not do this' },
  VERIFICATION_FAILED: { status: 403, message: 'Webhook verification failed' },
  NOT_FOUND: { status: 404, message: 'No such route' },
  MESSAGE_NOT_FOUND: { status: 404, message: 'Message not found' },
  CAMPAIGN_NOT_FOUND: { status: 404, message: 'Campaign not found' },
  TENANT_NOT_FOUND: { status: 404, message: 'Tenant not found' },
  API_KEY_NOT_FOUND: { status: 404, message: 'API key not found' },
  CHANNEL_ACCOUNT_NOT_FOUND: { status: 404, message: 'Channel account not found' },
  DELIVERY_NOT_FOUND: { status: 404, message: 'Webhook delivery not found' },
  /** No webhook endpoint of that id for the tenant (another tenant's is not found either). */
  WEBHOOK_ENDPOINT_NOT_FOUND: { status: 404, message: 'Webhook endpoint not found' },
  OPT_OUT_NOT_FOUND: { status: 404, message: 'Opt-out not found' },
  FLOW_NOT_FOUND: { status: 404, message: 'Flow not found' },
  MEDIA_EXPIRED: { status: 404, message: 'The upstream network no longer has this media item' },
  QUEUE_NOT_FOUND: { status: 404, message: 'No consumer queue of that name' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed on this path' },
  CAMPAIGN_NOT_CANCELLABLE: { status: 409, message: 'The campaign can no longer be cancelled' },
  CAMPAIGN_NOT_RETRYABLE: {
    status: 409,
    message: 'The campaign can only be retried once completed or failed',
  },
  CAMPAIGN_NOT_PAUSABLE: { status: 409, message: 'Only a processing or throttled campaign can be paused' },
  CAMPAIGN_NOT_RESUMABLE: { status: 409, message: 'Only a paused campaign can be resumed' },
  // POST /api/v1/campaigns/{id}/stop of a campaign that is not sending (details.status holds its status): one not
  // started yet is cancelled with POST .../cancel, a finished one has nothing left to stop.
  CAMPAIGN_NOT_STOPPABLE: {
    status: 409,
    message: 'Only a processing, throttled or paused campaign can be stopped',
  },
  MESSAGE_NOT_CANCELLABLE: { status: 409, message: 'Only a scheduled message can be cancelled' },
  IDEMPOTENCY_KEY_CONFLICT: {
    status: 409,
    message: 'The Idempotency-Key was used with a different request, or that request is still in flight',
  },
  LAST_OWNER: {
    status: 409,
    message: 'The last owner of the tenant cannot be demoted or removed',
  },
  CONFLICT: { status: 409, message: 'The resource already exists' },
  /** POST /api/v1/webhooks/endpoints when the tenant has WEBHOOK_ENDPOINTS_MAX (10) already. */
  WEBHOOK_ENDPOINT_LIMIT_REACHED: {
    status: 409,
    message: 'The tenant has the most webhook endpoints allowed (10); remove one first',
  },
  INVITE_EXPIRED: { status: 410, message: 'The invite link has expired or was already used' },
  RESET_LINK_EXPIRED: {
    status: 410,
    message: 'The password reset link has expired, was already used, or a newer one was sent',
  },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'The request body must be application/json' },
  VALIDATION_ERROR: { status: 422, message: 'The request is invalid' },
  NO_ACTIVE_ACCOUNT: { status: 422, message: 'No active sending account found for the request' },
  OUTSIDE_SERVICE_WINDOW: {
    status: 422,
    message: "The customer's last message is older than 24 hours; send a template instead",
  },
  TEMPLATE_NOT_FOUND: { status: 422, message: 'No template of that name and language for the account' },
  TEMPLATE_NOT_APPROVED: { status: 422, message: 'The template is not approved' },
  TEMPLATE_PAUSED: { status: 422, message: 'The template is paused by the upstream network' },
  TEMPLATE_PARAMETER_MISMATCH: {
    status: 422,
    message: "The number of parameters differs from the template's placeholders",
  },
  TEMPLATE_HEADER_MEDIA_REQUIRED: {
    status: 422,
    message: 'The template has a media header; the send must include a header component with media',
  },
  RECIPIENT_OPTED_OUT: { status: 422, message: 'The recipient has opted out of marketing messages' },
  RATE_LIMIT_EXCEEDED: { status: 429, message: 'The rate limit of your plan is exceeded' },
  MESSAGING_TIER_LIMIT_EXCEEDED: {
    status: 429,
    message: "The recipient count exceeds the number's remaining daily capacity",
  },
  INTERNAL_ERROR: { status: 500, message: 'An unexpected error occurred' },
  UPSTREAM_ERROR: { status: 502, message: 'The upstream network answered with an error' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'A dependency of this request is unavailable; try again' },
  SERVICE_DEGRADED: { status: 503, message: 'At least one health check failed' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function statusOf(code: ErrorCode): number {
  return ERROR_CODES[code].status;
}
