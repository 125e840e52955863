import type { Router } from 'express';
import { MESSAGING_ENDPOINTS } from '@bm/contracts';
import { AppError, defineRoutes, internalRoute } from '@bm/platform';
import type { MessagingDeps } from '../../domain/messaging-deps';

/**
 * Internal: which tenant and account own an upstream phone_number_id, for webhook-ingress (which must tell
 * its own numbers from unknown ones and raise notifications for the right tenant). Not on the public route table.
 */
export function channelLookupRoutes(router: Router, deps: MessagingDeps): void {
  defineRoutes(router, [
    internalRoute(MESSAGING_ENDPOINTS.accountByPhoneNumber, async ({ params }) => {
      const account = await deps.accounts.findByPhoneNumberId(params.phoneNumberId);
      if (!account) throw new AppError('CHANNEL_ACCOUNT_NOT_FOUND');
      return { channel_account_id: account.id, tenant_id: account.tenantId };
    }),
  ]);
}
