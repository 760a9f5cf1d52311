import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { judgeFileKind } from './file-kind.js';

const image = (format: 'png' | 'jpeg' | 'webp' | 'gif') =>
  sharp({ create: { width: 4, height: 3, channels: 3, background: '#3366ff' } })
    .toFormat(format)
    .toBuffer();

describe('the kind of an upload, from its bytes', () => {
  it('knows each allowed image kind from its bytes', async () => {
    for (const format of ['png', 'jpeg', 'webp', 'gif'] as const) {
      const kind = await judgeFileKind(await image(format));
      expect(kind).toEqual({ allowed: true, kind: format, mime: `image/${format}`, image: true });
    }
  });

  it('knows PDF, RTF, plain text (UTF-8, Arabic included) and an OLE document (DOC)', async () => {
    expect(await judgeFileKind(Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n'))).toMatchObject({
      allowed: true,
      kind: 'pdf',
      mime: 'application/pdf',
    });
    expect(await judgeFileKind(Buffer.from('{\\rtf1\\ansi Hello}'))).toMatchObject({ kind: 'rtf' });
    expect(await judgeFileKind(Buffer.from('Hello,\nمرحبا بك\tthanks\r\n'))).toMatchObject({
      kind: 'txt',
      mime: 'text/plain',
    });
    const ole = Buffer.alloc(1024);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(ole);
    expect(await judgeFileKind(ole)).toMatchObject({ allowed: true, kind: 'doc' });
  });

  it('refuses HTML and markup whatever the name says, executables and unknown binaries, naming what it found', async () => {
    expect(await judgeFileKind(Buffer.from('<!DOCTYPE html><script>alert(1)</script>'))).toEqual({
      allowed: false,
      found: 'html',
    });
    expect(await judgeFileKind(Buffer.from('  <svg onload="alert(1)"></svg>'))).toEqual({
      allowed: false,
      found: 'html',
    });
    const elf = Buffer.alloc(64);
    Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01]).copy(elf);
    expect(await judgeFileKind(elf)).toEqual({ allowed: false, found: 'elf' });
    const exe = Buffer.alloc(256);
    exe.write('MZ');
    expect(await judgeFileKind(exe)).toMatchObject({ allowed: false });
    expect(await judgeFileKind(Buffer.from([0x00, 0x01, 0x02, 0x03, 0xff]))).toEqual({
      allowed: false,
      found: 'unknown binary',
    });
    expect(await judgeFileKind(Buffer.alloc(0))).toMatchObject({ allowed: false });
  });
});
