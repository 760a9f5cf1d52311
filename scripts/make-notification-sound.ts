/**
 * Writes src/web/public/sounds/notification.wav: a short, soft two-tone chime
 * (16-bit mono PCM, 22.05 kHz, ~0.55 s, well under 40 KB).
 * Run: npx tsx scripts/make-notification-sound.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const SAMPLE_RATE = 22_050;
const DURATION_S = 0.55;
const PEAK = 0.32; // soft: about a third of full scale

/** Two notes (E5 then A5), each a sine with a touch of its octave, a fast attack and a gentle decay. */
const NOTES = [
  { start: 0, frequency: 659.25, length: 0.3 },
  { start: 0.14, frequency: 880, length: 0.41 },
];

const sampleAt = (time: number): number => {
  let value = 0;
  for (const note of NOTES) {
    const t = time - note.start;
    if (t < 0 || t > note.length) continue;
    const attack = Math.min(1, t / 0.008);
    const decay = Math.exp(-t * 7.5);
    const release = Math.min(1, (note.length - t) / 0.03);
    const tone =
      Math.sin(2 * Math.PI * note.frequency * t) +
      0.18 * Math.sin(4 * Math.PI * note.frequency * t);
    value += (tone / 1.18) * attack * decay * release;
  }
  return value * PEAK;
};

const frames = Math.round(SAMPLE_RATE * DURATION_S);
const data = Buffer.alloc(frames * 2);
for (let i = 0; i < frames; i += 1) {
  const clamped = Math.max(-1, Math.min(1, sampleAt(i / SAMPLE_RATE)));
  data.writeInt16LE(Math.round(clamped * 32_767), i * 2);
}

const header = Buffer.alloc(44);
header.write('RIFF', 0, 'ascii');
header.writeUInt32LE(36 + data.length, 4);
header.write('WAVE', 8, 'ascii');
header.write('fmt ', 12, 'ascii');
header.writeUInt32LE(16, 16); // fmt chunk size
header.writeUInt16LE(1, 20); // PCM
header.writeUInt16LE(1, 22); // mono
header.writeUInt32LE(SAMPLE_RATE, 24);
header.writeUInt32LE(SAMPLE_RATE * 2, 28); // byte rate
header.writeUInt16LE(2, 32); // block align
header.writeUInt16LE(16, 34); // bits per sample
header.write('data', 36, 'ascii');
header.writeUInt32LE(data.length, 40);

const target = resolve(import.meta.dirname, '../src/web/public/sounds/notification.wav');
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, Buffer.concat([header, data]));
console.log(`wrote ${target} (${header.length + data.length} bytes)`);
