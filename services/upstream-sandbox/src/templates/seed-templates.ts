import { newNumericId } from '../ids';
import type { Template, TemplateCategory, TemplateComponent, TemplateStatus } from './template';

interface SeedSpec {
  name: string;
  language?: string;
  category: TemplateCategory;
  status: TemplateStatus;
  components: TemplateComponent[];
}

const NAMED: SeedSpec[] = [
  {
    name: 'hello_world',
    category: 'UTILITY',
    status: 'APPROVED',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Hello World' },
      { type: 'BODY', text: 'Welcome and congratulations!! This message comes from the upstream sandbox.' },
      { type: 'FOOTER', text: 'Upstream sandbox' },
    ],
  },
  {
    name: 'order_update',
    category: 'MARKETING',
    status: 'APPROVED',
    components: [
      {
        type: 'HEADER',
        format: 'IMAGE',
        example: { header_handle: ['https://example.com/sandbox/order.jpg'] },
      },
      { type: 'BODY', text: 'Hi {{1}}, order {{2}}', example: { body_text: [['Mark', '#123']] } },
      { type: 'FOOTER', text: 'Reply STOP to opt out' },
      { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Stop' }] },
    ],
  },
  {
    name: 'otp_code',
    category: 'AUTHENTICATION',
    status: 'APPROVED',
    components: [{ type: 'BODY', text: 'Your code is {{1}}', example: { body_text: [['123456']] } }],
  },
  {
    name: 'promo_paused',
    category: 'MARKETING',
    status: 'PAUSED',
    components: [{ type: 'BODY', text: 'Big sale today, {{1}}!', example: { body_text: [['Mark']] } }],
  },
  {
    name: 'pending_tpl',
    category: 'UTILITY',
    status: 'PENDING',
    components: [
      { type: 'BODY', text: 'Your appointment is on {{1}}', example: { body_text: [['Monday']] } },
    ],
  },
  {
    name: 'disabled_tpl',
    category: 'MARKETING',
    status: 'DISABLED',
    components: [{ type: 'BODY', text: 'This offer is over' }],
  },
];

const FILLER_LANGUAGES = ['en_US', 'es_ES', 'pt_BR'];
const FILLER_COUNT = 24;

function fillers(): SeedSpec[] {
  return Array.from({ length: FILLER_COUNT }, (_, i) => ({
    name: `sample_notice_${String(i + 1).padStart(2, '0')}`,
    language: FILLER_LANGUAGES[i % FILLER_LANGUAGES.length],
    category: 'UTILITY' as const,
    status: 'APPROVED' as const,
    components: [{ type: 'BODY', text: 'Notice {{1}}', example: { body_text: [['#42']] } }],
  }));
}

/** The default set every WABA starts with (30 templates, enough for more than one page). */
export function seedTemplates(): Template[] {
  return [...NAMED, ...fillers()].map((spec) => ({
    id: newNumericId(),
    name: spec.name,
    language: spec.language ?? 'en_US',
    status: spec.status,
    category: spec.category,
    components: structuredClone(spec.components),
  }));
}
