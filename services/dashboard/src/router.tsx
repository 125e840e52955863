import { createBrowserRouter } from 'react-router';
import { ApiKeysScreen } from './routes/api-keys';
import { HealthScreen } from './routes/health';
import { Layout } from './routes/layout';
import { MessageScreen } from './routes/message';
import { MessagesScreen } from './routes/messages';
import { NumbersScreen } from './routes/numbers';
import { SendScreen } from './routes/send';
import { SetPasswordScreen } from './routes/set-password';
import { SignInScreen } from './routes/sign-in';
import { WebhooksScreen } from './routes/webhooks';

/** The screens, under /dashboard; the layout sends anyone not signed in to the sign-in screen. */
export const router = createBrowserRouter(
  [
    { path: '/sign-in', element: <SignInScreen /> },
    { path: '/set-password', element: <SetPasswordScreen /> },
    {
      path: '/',
      element: <Layout />,
      children: [
        { index: true, element: <NumbersScreen /> },
        { path: 'webhooks', element: <WebhooksScreen /> },
        { path: 'health', element: <HealthScreen /> },
        { path: 'messages', element: <MessagesScreen /> },
        { path: 'messages/:id', element: <MessageScreen /> },
        { path: 'send', element: <SendScreen /> },
        { path: 'api-keys', element: <ApiKeysScreen /> },
      ],
    },
  ],
  { basename: '/dashboard' },
);
