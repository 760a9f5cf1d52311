import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { fileHoldsMarkup, judgeFileKind, SNIFF_BYTES } from './file-kind.js';

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

  it.each([
    '<SCRIPT>alert(1)</SCRIPT>',
    '<HTML><BODY>',
    '<Html>',
    '<iframe src="https://evil.example">',
    '<IFRAME SRCDOC="x">',
    '<object data="x">',
    '<OBJECT>',
    '<embed src="x">',
    '<EMBED>',
    '<?xml version="1.0"?>',
    '<video src=x onerror=alert(1)>',
    '<details open ontoggle=alert(1)>',
    '<math><mtext>',
    '<!-- a comment -->',
    '</p>',
    '<x-anything>',
    '<Svg OnLoad=alert(1)>',
  ])(
    'refuses text holding markup %j, in any case, wherever it stands in the first bytes',
    async (markup) => {
      // alone it may be known as something else (`<?xml` as xml): refused either way
      expect(await judgeFileKind(Buffer.from(markup))).toMatchObject({ allowed: false });
      const inText = Buffer.from(`Dear team,\n\nplease see ${markup} below.\n`);
      expect(await judgeFileKind(inText)).toEqual({ allowed: false, found: 'html' });
    },
  );

  it.each(['a < b', '1<2 and 3 <= 4', 'I <3 this job', '<- back', '<< quoted >>', '<', 'x <\n'])(
    'takes text whose `<` starts no markup %j',
    async (text) => {
      expect(await judgeFileKind(Buffer.from(text))).toMatchObject({ allowed: true, kind: 'txt' });
    },
  );

  describe('the whole file, read as a stream', () => {
    const folder = mkdtempSync(join(tmpdir(), 'file-kind-'));
    afterAll(() => rmSync(folder, { recursive: true, force: true }));
    const write = (name: string, bytes: Buffer | string) => {
      const path = join(folder, name);
      writeFileSync(path, bytes);
      return path;
    };
    const filler = (length: number) => Buffer.alloc(length, 'plain words. ');

    it('finds markup far past the first bytes the kind is judged from', async () => {
      const late = Buffer.concat([filler(200_000), Buffer.from('<details ontoggle=alert(1)>')]);
      expect(await judgeFileKind(late.subarray(0, SNIFF_BYTES))).toMatchObject({ kind: 'txt' });
      expect(await fileHoldsMarkup(write('late.txt', late))).toBe(true);
      expect(await fileHoldsMarkup(write('clean.txt', filler(200_000)))).toBe(false);
    });

    it('finds a `<` that ends one chunk and the letter that starts the next', async () => {
      for (const at of [64 * 1024 - 1, 128 * 1024 - 1]) {
        const bytes = filler(at + 10);
        bytes.write('<s', at, 'latin1');
        expect(await fileHoldsMarkup(write(`edge-${at}.txt`, bytes)), `at ${at}`).toBe(true);
        bytes.write('< ', at, 'latin1');
        expect(await fileHoldsMarkup(write(`edge-ok-${at}.txt`, bytes)), `at ${at}`).toBe(false);
      }
    });
  });
});
