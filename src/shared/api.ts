import { z } from 'zod';
import {
  authUserSchema,
  chatSchema,
  jobSchema,
  messageGroupSchema,
  messengerUserSchema,
  receiverSchema,
} from './models.js';

import { MESSAGE_MAX_LENGTH, PAGE_LIMIT_MAX } from './paths.js';

export {
  BODY_LIMIT_BYTES,
  MESSAGE_MAX_LENGTH,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  paths,
} from './paths.js';

const id = z.coerce.number().int().positive();
const nullableJobId = z
  .union([z.null(), z.literal(''), z.coerce.number().int().positive()])
  .transform((value) => (value === '' ? null : value));

/** Query parameters every messaging call carries. */
export const defaultQuerySchema = z.object({
  key: z.string().optional(),
  token: z.string().optional(),
});

export const initialDataQuerySchema = z.object({
  job_id: z
    .union([z.literal(''), z.coerce.number().int().positive()])
    .optional()
    .transform((value) => (value === '' || value === undefined ? null : value)),
});
export type InitialDataQuery = z.infer<typeof initialDataQuerySchema>;

export const initialDataResponseSchema = z.object({
  jobs: z.array(jobSchema),
  messengerUsers: z.array(messengerUserSchema),
  auth: authUserSchema,
});
export type InitialDataResponse = z.infer<typeof initialDataResponseSchema>;

export const getMessageBodySchema = z.object({
  receiver_id: id,
  job_id: nullableJobId.optional().transform((value) => value ?? null),
  before: id.optional(),
  limit: z.coerce.number().int().min(1).max(PAGE_LIMIT_MAX).optional(),
});
export type GetMessageBody = z.input<typeof getMessageBodySchema>;

export const applicationGroupSchema = z.object({ id: z.number().int(), name: z.string() });

export const getMessageResponseSchema = z.object({
  receiver: receiverSchema,
  receiverJob: jobSchema.nullable(),
  messages: z.array(messageGroupSchema),
  has_more: z.boolean(),
  messengerUser: messengerUserSchema,
  application_group: applicationGroupSchema.nullable(),
});
export type GetMessageResponse = z.infer<typeof getMessageResponseSchema>;

export const sendMessageBodySchema = z.object({
  receiver_id: id,
  messenger_user: id,
  job_id: nullableJobId,
  message: z
    .string()
    .transform((value) => value.trim())
    .pipe(
      z
        .string()
        .min(1, 'The message field is required.')
        .max(
          MESSAGE_MAX_LENGTH,
          `The message may not be greater than ${MESSAGE_MAX_LENGTH} characters.`,
        ),
    ),
  client_id: z.string().uuid().optional(),
});
export type SendMessageBody = z.input<typeof sendMessageBodySchema>;

export const sendMessageResponseSchema = z.object({
  message: chatSchema,
  messengerUser: messengerUserSchema,
});
export type SendMessageResponse = z.infer<typeof sendMessageResponseSchema>;

export const messengerUserResponseSchema = z.object({ messengerUser: messengerUserSchema });
export type MessengerUserResponse = z.infer<typeof messengerUserResponseSchema>;

export const messengerUserParamsSchema = z.object({ id });

export const credentialsSchema = z.object({
  email: z.string().trim().toLowerCase().email().max(254),
  password: z.string().min(1).max(1024),
});
export type Credentials = z.input<typeof credentialsSchema>;

export const loginResponseSchema = z.object({ user: authUserSchema });
export const tokenResponseSchema = z.object({ token: z.string() });

export const messengerConfigSchema = z.object({
  key: z.string(),
  locales: z.array(z.string()),
  fallbackLocale: z.string(),
  broadcaster: z.object({
    key: z.string(),
    cluster: z.string(),
    wsHost: z.string().optional(),
    wsPort: z.number().int().optional(),
    wssPort: z.number().int().optional(),
    forceTLS: z.boolean(),
    authEndpoint: z.string(),
    userAuthEndpoint: z.string().optional(),
  }),
});
export type MessengerConfig = z.infer<typeof messengerConfigSchema>;

export const errorResponseSchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
