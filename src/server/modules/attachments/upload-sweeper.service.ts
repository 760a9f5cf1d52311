import type { AttachmentsService } from './attachments.service.js';
import { removeAbandonedUploads } from './upload-temp.js';

export interface UploadSweeperOptions {
  attachmentsService: AttachmentsService;
  uploadTempDir: string;
  everyMs: number;
  logger: { warn(obj: unknown, msg?: string): void };
}

/**
 * Unused uploads expire, and uploads cut off by a killed process are deleted: at start, then every
 * `everyMs`. Every instance sweeps; deleting twice is harmless.
 */
export const createUploadSweeper = (options: UploadSweeperOptions) => {
  let sweeping: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const sweep = () => {
    sweeping = Promise.all([
      options.attachmentsService.expire(),
      removeAbandonedUploads(options.uploadTempDir),
    ]).catch((error: unknown) =>
      options.logger.warn({ err: error }, 'attachments: the sweep failed'),
    );
  };
  return {
    start() {
      sweep();
      timer = setInterval(sweep, options.everyMs);
      timer.unref();
    },
    /** No new sweep starts; the running one is waited for. */
    async stop() {
      clearInterval(timer);
      await sweeping;
    },
  };
};
