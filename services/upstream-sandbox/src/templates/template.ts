/** A message template as the upstream lists it. */
export type TemplateStatus =
  | 'APPROVED'
  | 'PENDING'
  | 'REJECTED'
  | 'PAUSED'
  | 'DISABLED'
  | 'IN_APPEAL'
  | 'PENDING_DELETION'
  | 'DELETED'
  | 'LIMIT_EXCEEDED';

export const TEMPLATE_STATUSES: readonly TemplateStatus[] = [
  'APPROVED',
  'PENDING',
  'REJECTED',
  'PAUSED',
  'DISABLED',
  'IN_APPEAL',
  'PENDING_DELETION',
  'DELETED',
  'LIMIT_EXCEEDED',
];

export type TemplateCategory = 'MARKETING' | 'UTILITY' | 'AUTHENTICATION';
export const TEMPLATE_CATEGORIES: readonly TemplateCategory[] = ['MARKETING', 'UTILITY', 'AUTHENTICATION'];

export interface TemplateComponent {
  type: string;
  format?: string;
  text?: string;
  example?: Record<string, unknown>;
  buttons?: Record<string, unknown>[];
  [key: string]: unknown;
}

export interface Template {
  id: string;
  name: string;
  language: string;
  status: TemplateStatus;
  category: TemplateCategory;
  components: TemplateComponent[];
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** How many distinct `{{n}}` placeholders a piece of template text holds. */
export function countPlaceholders(text: string | undefined): number {
  if (text === undefined) return 0;
  return new Set(Array.from(text.matchAll(PLACEHOLDER), (m) => m[1])).size;
}

/** The component of a type (HEADER, BODY, ...), compared without case. */
export function findComponent(template: Template, type: string): TemplateComponent | undefined {
  return template.components.find((c) => c.type.toUpperCase() === type.toUpperCase());
}
