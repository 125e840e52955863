import { createBrowserRouter } from 'react-router';
import { ApiKeysScreen } from './routes/api-keys';
import { AuditLogScreen } from './routes/audit-log';
import { CampaignScreen } from './routes/campaign';
import { CampaignsScreen } from './routes/campaigns';
import { EditFlowScreen, NewFlowScreen } from './routes/flow-editor';
import { FlowScreen, FlowsScreen } from './routes/flows';
import { ForgotPasswordScreen } from './routes/forgot-password';
import { HealthScreen } from './routes/health';
import { Layout } from './routes/layout';
import { MessageScreen } from './routes/message';
import { MessagesScreen } from './routes/messages';
import { NotificationsScreen } from './routes/notifications';
import { NumbersScreen } from './routes/numbers';
import { OptOutsScreen } from './routes/opt-outs';
import { OverviewScreen } from './routes/overview';
import { ResetPasswordScreen } from './routes/reset-password';
import { SendScreen } from './routes/send';
import { SetPasswordScreen } from './routes/set-password';
import { SignInScreen } from './routes/sign-in';
import { TeamScreen } from './routes/team';
import { TemplateScreen, TemplatesScreen } from './routes/templates';
import { WebhooksScreen } from './routes/webhooks';

// The inbox and the campaign builder (with its CSV parser) are chunks of their own, fetched when first opened:
// the first screen's script stays small.
const inbox = () => import('./routes/inbox').then((m) => ({ Component: m.InboxScreen }));
const newCampaign = () => import('./routes/new-campaign').then((m) => ({ Component: m.NewCampaignScreen }));

/** The screens, under /dashboard; the layout sends anyone not signed in to the sign-in screen. */
export const router = createBrowserRouter(
  [
    { path: '/sign-in', element: <SignInScreen /> },
    { path: '/set-password', element: <SetPasswordScreen /> },
    { path: '/forgot-password', element: <ForgotPasswordScreen /> },
    { path: '/reset-password', element: <ResetPasswordScreen /> },
    {
      path: '/',
      element: <Layout />,
      children: [
        { index: true, element: <OverviewScreen /> },
        { path: 'inbox/:id?', lazy: inbox },
        { path: 'numbers', element: <NumbersScreen /> },
        { path: 'campaigns', element: <CampaignsScreen /> },
        { path: 'campaigns/new', lazy: newCampaign },
        { path: 'campaigns/:id', element: <CampaignScreen /> },
        { path: 'templates', element: <TemplatesScreen /> },
        { path: 'templates/:accountId/:id', element: <TemplateScreen /> },
        { path: 'opt-outs', element: <OptOutsScreen /> },
        { path: 'flows', element: <FlowsScreen /> },
        { path: 'flows/new', element: <NewFlowScreen /> },
        { path: 'flows/:id', element: <FlowScreen /> },
        { path: 'flows/:id/edit', element: <EditFlowScreen /> },
        { path: 'notifications', element: <NotificationsScreen /> },
        { path: 'webhooks', element: <WebhooksScreen /> },
        { path: 'health', element: <HealthScreen /> },
        { path: 'messages', element: <MessagesScreen /> },
        { path: 'messages/:id', element: <MessageScreen /> },
        { path: 'send', element: <SendScreen /> },
        { path: 'api-keys', element: <ApiKeysScreen /> },
        { path: 'team', element: <TeamScreen /> },
        { path: 'audit-log', element: <AuditLogScreen /> },
      ],
    },
  ],
  { basename: '/dashboard' },
);
