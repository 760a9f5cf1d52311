import { safeNextPath } from './safe-next-path.js';

describe('safeNextPath', () => {
  it.each([
    ['?next=%2Fmessages%3Ftab%3D2', '/messages?tab=2'],
    ['?next=%2F%2Fevil.example', '/messages'],
    ['?next=https%3A%2F%2Fevil.example', '/messages'],
    ['?next=%2F%5Cevil.example', '/messages'],
    ['?next=%2Fmessages%5C..%5Cevil', '/messages'],
    ['?next=%2F%09%2Fevil.example', '/messages'],
    ['?next=%2F.%2F%2Fevil.example%2Fphish', '/messages'],
    ['?next=%2F..%2F%2Fevil.example', '/messages'],
    ['?next=%2F%252e%2F%2Fevil.example', '/messages'],
    ['?next=%2Fa%2F..%2F%2Fevil.example', '/messages'],
    ['?next=%2Fa%2F..%2Fmessages%3Ftab%3D1', '/messages?tab=1'],
    ['?next=', '/messages'],
    ['', '/messages'],
  ])('%s → %s', (search, expected) => {
    expect(safeNextPath(search)).toBe(expected);
  });
});
