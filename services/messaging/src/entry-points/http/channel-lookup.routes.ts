import type { Router } from 'express';
import { ok } from '@bm/contracts';
import { AppError, defineRoutes } from '@bm/platform';
import type { MessagingDeps } from '../../domain/messaging-deps';

/**
 * Internal: which tenant and account own an upstream phone_number_id, for webhook-ingress (which must tell
 * its own numbers from unknown ones and raise notifications for the right tenant). Not on the public route table.
 */
export function channelLookupRoutes(router: Router, deps: MessagingDeps): void {
  defineRoutes(router, [
    {
      method: 'GET',
      path: '/internal/v1/channel-accounts/by-phone-number/:phoneNumberId',
      handlers: [
        async (req, res) => {
          const account = await deps.accounts.findByPhoneNumberId(String(req.params.phoneNumberId));
          if (!account) throw new AppError('CHANNEL_ACCOUNT_NOT_FOUND');
          res.json(ok({ channel_account_id: account.id, tenant_id: account.tenantId }));
        },
      ],
    },
  ]);
}
