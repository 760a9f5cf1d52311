import { z } from 'zod';
import { setting } from './setting.js';

export const attachmentSettings = {
  STORAGE_URL: setting(
    z
      .string()
      .min(1)
      .regex(/^(file:|s3:\/\/)/, 'must be file:<dir> or s3://<bucket>?…')
      .default('file:./data/uploads'),
    {
      description:
        'Where attachments live: `file:<dir>`, or `s3://bucket?endpoint=…&region=…&forcePathStyle=true` (the directory or bucket is the messenger’s own).',
    },
  ),
  AWS_ACCESS_KEY_ID: setting(z.string().optional(), {
    description: 'The S3 access key (with `AWS_SECRET_ACCESS_KEY`).',
    unset: 'the SDK’s own ways: an instance role, `~/.aws`…',
    secret: true,
  }),
  AWS_SECRET_ACCESS_KEY: setting(z.string().optional(), {
    description: 'The S3 secret key.',
    unset: 'the SDK’s own ways',
    secret: true,
  }),
  ATTACHMENT_SWEEP_SECONDS: setting(z.coerce.number().positive().default(3600), {
    description: 'How often unused uploads (and bytes nothing points at) are looked for.',
  }),
  UPLOAD_TMP_DIR: setting(z.string().min(1).optional(), {
    description: 'Where uploads are streamed before they are stored (one directory per upload).',
    unset: '`messenger-uploads` in the system’s temporary directory',
  }),
};
