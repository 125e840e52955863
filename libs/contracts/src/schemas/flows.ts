import Joi from 'joi';
import { paginationQuerySchema, ulidSchema, type Pagination } from './common';
import { languageCodeSchema, TEXT_MAX_LENGTH } from './messages';
import { sendComponentsSchema, type SendComponent } from './send-components';

/*
 * Conversation flows (chatbots) of a channel account. A flow is a trigger and a list of steps; the first step is
 * where a session starts. Every save is a new version: a running session finishes on the version it started.
 */

export const FLOW_STATUSES = ['active', 'inactive'] as const;
export type FlowStatus = (typeof FLOW_STATUSES)[number];

export const FLOW_SESSION_STATUSES = ['active', 'completed', 'handed_off', 'cancelled', 'timed_out'] as const;
export type FlowSessionStatus = (typeof FLOW_SESSION_STATUSES)[number];

export const FLOW_STEP_TYPES = [
  'send_text',
  'send_template',
  'send_buttons',
  'send_list',
  'wait_for_reply',
  'set_variable',
  'handoff',
  'end',
] as const;
export type FlowStepType = (typeof FLOW_STEP_TYPES)[number];

/** Starts a session: one of the keywords (the whole message, any case), or any first message of a new conversation. */
export type FlowTrigger = { type: 'keyword'; keywords: string[] } | { type: 'new_conversation' };

interface StepBase {
  /** Unique in the flow; `next` and branches name steps by it. */
  id: string;
}
export interface SendTextStep extends StepBase {
  type: 'send_text';
  /** `{{variable}}` is replaced by the session's variable. */
  text: string;
  next: string;
}
export interface SendTemplateStep extends StepBase {
  type: 'send_template';
  template: { name: string; language_code: string; components?: SendComponent[] };
  next: string;
}
export interface ReplyButton {
  id: string;
  title: string;
}
export interface SendButtonsStep extends StepBase {
  type: 'send_buttons';
  body: string;
  buttons: ReplyButton[];
  next: string;
}
export interface ListRow {
  id: string;
  title: string;
  description?: string;
}
export interface SendListStep extends StepBase {
  type: 'send_list';
  body: string;
  /** The label of the button that opens the list. */
  button: string;
  sections: Array<{ title?: string; rows: ListRow[] }>;
  next: string;
}
/** One way out of a wait: a reply button's id, a list row's id, or a keyword (the whole reply, any case). */
export type FlowBranch =
  { button_id: string; next: string } | { row_id: string; next: string } | { keyword: string; next: string };
export interface WaitForReplyStep extends StepBase {
  type: 'wait_for_reply';
  /** Keeps the reply in this variable: the button or row id when there is one, else the text. */
  save_as?: string;
  branches: FlowBranch[];
  /** Where any other reply goes. */
  fallback: string;
}
export interface SetVariableStep extends StepBase {
  type: 'set_variable';
  variable: string;
  /** `{{variable}}` is replaced; `{{reply}}` is the last reply's text. */
  value: string;
  next: string;
}
export interface HandoffStep extends StepBase {
  type: 'handoff';
}
export interface EndStep extends StepBase {
  type: 'end';
}
export type FlowStep =
  | SendTextStep
  | SendTemplateStep
  | SendButtonsStep
  | SendListStep
  | WaitForReplyStep
  | SetVariableStep
  | HandoffStep
  | EndStep;

/** The versioned part of a flow. */
export interface FlowDefinition {
  trigger: FlowTrigger;
  /** A session waiting longer than this for a reply ends (timed_out). */
  timeout_seconds: number;
  steps: FlowStep[];
}

/** POST /api/v1/flows and PUT /api/v1/flows/{id}. */
export interface SaveFlowRequest extends FlowDefinition {
  channel_account_id: string;
  name: string;
}

const STEP_ID = /^[A-Za-z0-9_.-]{1,64}$/;
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const stepIdSchema = Joi.string().pattern(STEP_ID, 'step id');
const variableSchema = Joi.string().pattern(VARIABLE, 'variable name');
const next = stepIdSchema.required().description('Id of the step that follows');
const type = (t: FlowStepType) => Joi.string().valid(t).required();
const bodyText = Joi.string().max(1024).pattern(/\S/, 'not blank').required();

const stepSchemas: Record<FlowStepType, Joi.ObjectSchema> = {
  send_text: Joi.object<SendTextStep>({
    id: stepIdSchema.required(),
    type: type('send_text'),
    text: Joi.string().max(TEXT_MAX_LENGTH).pattern(/\S/, 'not blank').required(),
    next,
  }),
  send_template: Joi.object<SendTemplateStep>({
    id: stepIdSchema.required(),
    type: type('send_template'),
    template: Joi.object({
      name: Joi.string().max(512).required(),
      language_code: languageCodeSchema.default('en_US'),
      components: sendComponentsSchema,
    }).required(),
    next,
  }),
  send_buttons: Joi.object<SendButtonsStep>({
    id: stepIdSchema.required(),
    type: type('send_buttons'),
    body: bodyText,
    buttons: Joi.array()
      .items(Joi.object({ id: Joi.string().max(256).required(), title: Joi.string().max(20).required() }))
      .min(1)
      .max(3)
      .unique('id')
      .required(),
    next,
  }),
  send_list: Joi.object<SendListStep>({
    id: stepIdSchema.required(),
    type: type('send_list'),
    body: bodyText,
    button: Joi.string().max(20).required(),
    sections: Joi.array()
      .items(
        Joi.object({
          title: Joi.string().max(24),
          rows: Joi.array()
            .items(
              Joi.object({
                id: Joi.string().max(200).required(),
                title: Joi.string().max(24).required(),
                description: Joi.string().max(72),
              }),
            )
            .min(1)
            .max(10)
            .required(),
        }),
      )
      .min(1)
      .max(10)
      .required(),
    next,
  }),
  wait_for_reply: Joi.object<WaitForReplyStep>({
    id: stepIdSchema.required(),
    type: type('wait_for_reply'),
    save_as: variableSchema,
    branches: Joi.array()
      .items(
        Joi.object({
          button_id: Joi.string().max(256),
          row_id: Joi.string().max(200),
          keyword: Joi.string().max(256).pattern(/\S/, 'not blank'),
          next,
        }).xor('button_id', 'row_id', 'keyword'),
      )
      .max(50)
      .default([]),
    fallback: stepIdSchema.required().description('Id of the step any other reply goes to'),
  }),
  set_variable: Joi.object<SetVariableStep>({
    id: stepIdSchema.required(),
    type: type('set_variable'),
    variable: variableSchema.required(),
    value: Joi.string().max(1024).allow('').required(),
    next,
  }),
  handoff: Joi.object<HandoffStep>({ id: stepIdSchema.required(), type: type('handoff') }),
  end: Joi.object<EndStep>({ id: stepIdSchema.required(), type: type('end') }),
};

/** One step, checked by its `type`; an unknown type is an error on `type` alone. */
export const flowStepSchema = FLOW_STEP_TYPES.reduce<Joi.AlternativesSchema>(
  (alternatives, t) => alternatives.conditional('.type', { is: t, then: stepSchemas[t] }),
  Joi.alternatives(),
).conditional('.type', {
  not: Joi.valid(...FLOW_STEP_TYPES),
  then: Joi.object({
    type: Joi.string()
      .valid(...FLOW_STEP_TYPES)
      .required(),
  }).unknown(true),
});

export const flowTriggerSchema = Joi.object<FlowTrigger>({
  type: Joi.string().valid('keyword', 'new_conversation').required(),
  keywords: Joi.when('type', {
    is: 'keyword',
    then: Joi.array().items(Joi.string().max(256).pattern(/\S/, 'not blank')).min(1).max(50).required(),
    otherwise: Joi.forbidden(),
  }),
});

/** POST /api/v1/flows and PUT /api/v1/flows/{id}: the whole flow; the graph is checked beyond this schema. */
export const saveFlowSchema = Joi.object<SaveFlowRequest>({
  channel_account_id: ulidSchema.required().description('The account whose customers the flow talks to'),
  name: Joi.string().max(200).pattern(/\S/, 'not blank').required(),
  trigger: flowTriggerSchema.required(),
  timeout_seconds: Joi.number()
    .integer()
    .min(1)
    .max(30 * 86400)
    .default(3600)
    .description('How long a session waits for a reply before it ends'),
  steps: Joi.array().items(flowStepSchema).min(1).max(200).required().description('The first step starts'),
}).description('A conversation flow');

export interface ListFlowsQuery {
  page: number;
  per_page: number;
  channel_account_id?: string;
  status?: FlowStatus;
}
export const listFlowsQuerySchema = Joi.object<ListFlowsQuery>({
  ...paginationQuerySchema,
  channel_account_id: ulidSchema,
  status: Joi.string().valid(...FLOW_STATUSES),
});

export interface ListFlowSessionsQuery {
  page: number;
  per_page: number;
  status?: FlowSessionStatus;
}
export const listFlowSessionsQuerySchema = Joi.object<ListFlowSessionsQuery>({
  ...paginationQuerySchema,
  status: Joi.string().valid(...FLOW_SESSION_STATUSES),
});

export interface FlowDto extends FlowDefinition {
  flow_id: string;
  channel_account_id: string;
  name: string;
  status: FlowStatus;
  /** Raised by every save; sessions record the version they run. */
  version: number;
  created_at: string;
  updated_at: string;
}

export interface FlowListDto {
  flows: FlowDto[];
  pagination: Pagination;
}

export interface FlowSessionDto {
  session_id: string;
  flow_id: string;
  flow_version: number;
  channel_account_id: string;
  phone: string;
  status: FlowSessionStatus;
  /** The step the session waits at; null once it ended. */
  current_step: string | null;
  variables: Record<string, string>;
  started_at: string;
  /** When a waiting session times out; null once it ended. */
  expires_at: string | null;
  ended_at: string | null;
}

export interface FlowSessionListDto {
  sessions: FlowSessionDto[];
  pagination: Pagination;
}
