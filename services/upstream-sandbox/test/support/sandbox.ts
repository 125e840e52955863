import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import { startHttpServer } from '@bm/platform';
import { useFixture } from '../../../../test/support/use-fixture';
import { createSandboxApp, type SandboxApp } from '../../src/app';
import { loadSandboxConfig } from '../../src/config';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver';
import type { SendAnswer } from './wire-types';

export const APP_SECRET = 'test-app-secret';
export const TOKEN = 'test-access-token';

export interface TemplateRef {
  name: string;
  language?: string;
  components?: unknown[];
}

export interface RunningSandbox {
  url: string;
  sandbox: SandboxApp;
  receiver: WebhookReceiver;
  /** Calls the sandbox with a token; never throws on an HTTP error status. */
  http: AxiosInstance;
  sendText(phoneNumberId: string, to: string, body?: string): Promise<AxiosResponse<SendAnswer>>;
  sendTemplate(phoneNumberId: string, to: string, template: TemplateRef): Promise<AxiosResponse<SendAnswer>>;
  /** Registers a fresh phone number id with the given settings (WABA, display number, cap) and returns it. */
  registerNumber(settings: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/** A sandbox on a free port whose webhooks go to a fresh local receiver; statuses come fast. */
export async function startSandbox(env: Record<string, string> = {}): Promise<RunningSandbox> {
  const receiver = await startWebhookReceiver();
  const config = loadSandboxConfig({
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SANDBOX_APP_SECRET: APP_SECRET,
    SANDBOX_WEBHOOK_URL: receiver.url,
    SANDBOX_STATUS_DELAYS_MS: '20,40,60',
    SANDBOX_WEBHOOK_RETRY_BASE_MS: '20',
    ...env,
  });
  const sandbox = createSandboxApp(config);
  const server = await startHttpServer(sandbox.app, 0, '127.0.0.1');
  const http = axios.create({
    baseURL: server.url,
    validateStatus: () => true,
    headers: { Authorization: `Bearer ${TOKEN}` },
  });
  return {
    url: server.url,
    sandbox,
    receiver,
    http,
    sendText: (phoneNumberId, to, body) => sendText(http, phoneNumberId, to, body),
    sendTemplate: (phoneNumberId, to, template) => sendTemplate(http, phoneNumberId, to, template),
    registerNumber: async (settings) => {
      const phoneNumberId = uniquePhoneNumberId();
      await http.put(`/_sandbox/numbers/${phoneNumberId}`, settings);
      return phoneNumberId;
    },
    close: async () => {
      await sandbox.close();
      await server.close();
      await receiver.close();
    },
  };
}

/** A sandbox for the tests of the file (or describe block) that calls it: see `useFixture`. */
export function useSandbox(env: Record<string, string> = {}): RunningSandbox {
  return useFixture(
    () => startSandbox(env),
    (running) => running.close(),
  );
}

let numberCounter = 0;

/** A recipient no other test uses, ending in the given digits (to pick a built-in fault, or none). */
export function uniqueRecipient(suffix = '1234'): string {
  numberCounter += 1;
  const middle = `${process.pid % 1000}${numberCounter}`.padStart(6, '0').slice(-6);
  return `1${middle}${suffix}`;
}

/** A phone number id no other test uses. */
export function uniquePhoneNumberId(): string {
  numberCounter += 1;
  return `10${Date.now() % 1_000_000_000}${numberCounter}`;
}

/** A template body component whose text parameters are the given values, in order. */
export function bodyWith(...texts: string[]): { type: 'body'; parameters: { type: 'text'; text: string }[] } {
  return { type: 'body', parameters: texts.map((text) => ({ type: 'text', text })) };
}

export function sendText(
  http: AxiosInstance,
  phoneNumberId: string,
  to: string,
  body = 'Hello',
): Promise<AxiosResponse<SendAnswer>> {
  return http.post<SendAnswer>(`/v21.0/${phoneNumberId}/messages`, {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    type: 'text',
    text: { preview_url: false, body },
  });
}

export function sendTemplate(
  http: AxiosInstance,
  phoneNumberId: string,
  to: string,
  template: TemplateRef,
): Promise<AxiosResponse<SendAnswer>> {
  return http.post<SendAnswer>(`/v21.0/${phoneNumberId}/messages`, {
    messaging_product: 'whatsapp',
    to,
    type: 'template',
    template: {
      name: template.name,
      language: { code: template.language ?? 'en_US' },
      components: template.components,
    },
  });
}
