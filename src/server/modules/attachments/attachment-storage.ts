import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

/** How a stored file is handed to a browser. */
export interface Delivery {
  /** The stored MIME type. */
  mime: string;
  /** `attachment; filename*=…` or `inline; …` (images). */
  disposition: string;
}

export type Opened =
  { kind: 'stream'; stream: Readable; size: number } | { kind: 'redirect'; url: string };

/**
 * Where attachment bytes live (`STORAGE_URL`). Keys are made by the server
 * (random, never from a user), so they are safe as file names and object keys.
 */
export interface AttachmentStorage {
  /** Stores the finished local file `path` (`size` bytes) under `key`; the file may be moved away (the caller removes what is left). */
  put(key: string, path: string, size: number, mime: string): Promise<void>;
  /** The bytes to stream, or (S3) a presigned address valid at most 5 minutes. */
  open(key: string, delivery: Delivery): Promise<Opened>;
  /** Removes the bytes; nothing happens when they are already gone. */
  delete(key: string): Promise<void>;
  /** Every stored key last written before `before` (the sweep of bytes no row points at). */
  listOlderThan(before: Date): AsyncIterable<string>;
}

/** The default: files in a directory (`file:./data/uploads`). */
export class LocalAttachmentStorage implements AttachmentStorage {
  private readonly root: string;

  constructor(directory: string) {
    this.root = resolve(directory);
  }

  private pathOf(key: string): string {
    if (!/^[A-Za-z0-9_-]+(?:\.[a-z0-9]+)?$/.test(key)) throw new Error(`bad storage key ${key}`);
    // two levels of folders keep directories small
    return join(this.root, key.slice(0, 2), key);
  }

  /**
   * Moves the finished upload into place (a rename: no copy, and never a half-written file under
   * its key); across file systems, a copy under a temporary name renamed into place.
   */
  async put(key: string, path: string): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    try {
      await rename(path, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      const partial = `${target}.partial`;
      await copyFile(path, partial);
      await rename(partial, target);
    }
  }

  async open(key: string): Promise<Opened> {
    const path = this.pathOf(key);
    const { size } = await stat(path);
    return { kind: 'stream', stream: createReadStream(path), size };
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async *listOlderThan(before: Date): AsyncIterable<string> {
    let folders: string[];
    try {
      folders = await readdir(this.root);
    } catch {
      return;
    }
    for (const folder of folders) {
      let names: string[];
      try {
        names = await readdir(join(this.root, folder));
      } catch {
        continue;
      }
      for (const name of names) {
        const info = await stat(join(this.root, folder, name)).catch(() => undefined);
        if (info?.isFile() && info.mtime < before) yield name;
      }
    }
  }
}

export interface S3Location {
  bucket: string;
  endpoint?: string | undefined;
  region: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
}

/** Presigned downloads live this long (the contract: at most 5 minutes). */
export const PRESIGNED_SECONDS = 300;

/** Any S3-compatible store (`s3://bucket?endpoint=…&region=…&forcePathStyle=true`). */
export class S3AttachmentStorage implements AttachmentStorage {
  private readonly client: S3Client;

  constructor(private readonly location: S3Location) {
    this.client = new S3Client({
      region: location.region,
      forcePathStyle: location.forcePathStyle,
      // plain bodies: many S3-compatible stores do not understand aws-chunked uploads with trailing checksums
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(location.endpoint ? { endpoint: location.endpoint } : {}),
      ...(location.credentials ? { credentials: location.credentials } : {}),
    });
  }

  async put(key: string, path: string, size: number, mime: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.location.bucket,
        Key: key,
        Body: createReadStream(path),
        ContentLength: size,
        ContentType: mime,
      }),
    );
  }

  async open(key: string, delivery: Delivery): Promise<Opened> {
    const url = await getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.location.bucket,
        Key: key,
        ResponseContentType: delivery.mime,
        ResponseContentDisposition: delivery.disposition,
        ResponseCacheControl: 'private',
      }),
      { expiresIn: PRESIGNED_SECONDS },
    );
    return { kind: 'redirect', url };
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.location.bucket, Key: key }));
  }

  async *listOlderThan(before: Date): AsyncIterable<string> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.location.bucket, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? [])
        if (object.Key && object.LastModified && object.LastModified < before) yield object.Key;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  destroy(): void {
    this.client.destroy();
  }
}

/** `file:<dir>` or `s3://<bucket>?endpoint=…&region=…&forcePathStyle=true`. */
export const parseStorageUrl = (
  value: string,
  credentials?: S3Location['credentials'],
): { kind: 'file'; directory: string } | ({ kind: 's3' } & S3Location) => {
  if (value.startsWith('file:')) {
    const directory = value.slice('file:'.length).replace(/^\/\/(?=\/)/, '');
    if (!directory) throw new Error('STORAGE_URL file: needs a directory.');
    return { kind: 'file', directory };
  }
  if (value.startsWith('s3://')) {
    const url = new URL(value);
    if (!url.hostname) throw new Error('STORAGE_URL s3:// needs a bucket.');
    return {
      kind: 's3',
      bucket: url.hostname,
      endpoint: url.searchParams.get('endpoint') ?? undefined,
      region: url.searchParams.get('region') ?? 'us-east-1',
      forcePathStyle: url.searchParams.get('forcePathStyle') === 'true',
      credentials,
    };
  }
  throw new Error('STORAGE_URL must be file:<dir> or s3://<bucket>?….');
};

export const createAttachmentStorage = (
  value: string,
  credentials?: S3Location['credentials'],
): AttachmentStorage => {
  const parsed = parseStorageUrl(value, credentials);
  return parsed.kind === 'file'
    ? new LocalAttachmentStorage(parsed.directory)
    : new S3AttachmentStorage(parsed);
};
