import { describe, expect, it } from 'vitest';
import {
  CHANNEL_NAME_PATTERN,
  channelKind,
  decodeFrameData,
  encodeConnectionEstablished,
  encodeError,
  encodeEvent,
  encodeSubscriptionError,
  generateSocketId,
  isValidChannelName,
  isValidSocketId,
  presenceChannelDataSchema,
  toEventData,
  userDataSchema,
} from './protocol.js';

describe('channel names', () => {
  it('accepts the names Pusher accepts', () => {
    for (const name of [
      'private-chat.1',
      'presence-room',
      'public',
      'a',
      'A-Z_0-9=@,.;',
      'x'.repeat(164),
    ]) {
      expect(isValidChannelName(name), name).toBe(true);
    }
  });

  it('refuses anything else, with an anchored pattern', () => {
    for (const name of [
      '',
      'x'.repeat(165),
      'private-chat 1',
      'chat/1',
      'ok\nprivate-chat.1',
      'private-chat.1\n',
      'é',
      '#server-to-user-1',
      'a:b',
      'a*',
    ]) {
      expect(isValidChannelName(name), JSON.stringify(name)).toBe(false);
    }
    expect(isValidChannelName(42)).toBe(false);
    expect(CHANNEL_NAME_PATTERN.source.startsWith('^')).toBe(true);
    expect(CHANNEL_NAME_PATTERN.source.endsWith('$')).toBe(true);
  });

  it('classifies channels', () => {
    expect(channelKind('private-chat.1')).toBe('private');
    expect(channelKind('private-encrypted-x')).toBe('private');
    expect(channelKind('presence-room')).toBe('presence');
    expect(channelKind('news')).toBe('public');
    expect(channelKind('#server-to-user-42')).toBe('server-to-user');
    expect(channelKind('#server-to-user-')).toBeNull();
    expect(channelKind('bad name')).toBeNull();
  });
});

describe('socket ids', () => {
  it('generates distinct ids of the form 123.456', () => {
    const ids = new Set(Array.from({ length: 1000 }, generateSocketId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(isValidSocketId(id)).toBe(true);
  });

  it('validates with an anchored pattern', () => {
    expect(isValidSocketId('1.2')).toBe(true);
    for (const id of ['1', '1.', '.1', '1.2.3', 'a.b', ' 1.2', '1.2\n', '1.2;3.4', 42]) {
      expect(isValidSocketId(id), JSON.stringify(id)).toBe(false);
    }
  });
});

describe('frames', () => {
  it('sends connection_established with data as a JSON string', () => {
    const frame = JSON.parse(encodeConnectionEstablished('1.2', 120)) as {
      event: string;
      data: string;
    };
    expect(frame.event).toBe('pusher:connection_established');
    expect(typeof frame.data).toBe('string');
    expect(JSON.parse(frame.data)).toEqual({ socket_id: '1.2', activity_timeout: 120 });
  });

  it('encodes events with a data string and errors with a data object', () => {
    expect(
      JSON.parse(encodeEvent('App\\Events\\ChatMessage', '{"a":1}', 'private-chat.1')),
    ).toEqual({
      event: 'App\\Events\\ChatMessage',
      channel: 'private-chat.1',
      data: '{"a":1}',
    });
    expect(JSON.parse(encodeError(4001, 'nope'))).toEqual({
      event: 'pusher:error',
      data: { code: 4001, message: 'nope' },
    });
    expect(JSON.parse(encodeSubscriptionError('private-x', 'bad'))).toEqual({
      event: 'pusher:subscription_error',
      channel: 'private-x',
      data: { type: 'AuthError', error: 'bad', status: 401 },
    });
  });

  it('serializes data once: strings as they are, anything else as JSON', () => {
    expect(toEventData('already json')).toBe('already json');
    expect(toEventData({ chatMessage: { id: 1 } })).toBe('{"chatMessage":{"id":1}}');
    expect(toEventData(undefined)).toBe('null');
  });

  it('decodes frame data given as an object or as a JSON string', () => {
    expect(decodeFrameData({ channel: 'a' })).toEqual({ channel: 'a' });
    expect(decodeFrameData('{"channel":"a"}')).toEqual({ channel: 'a' });
    expect(decodeFrameData('not json')).toBe('not json');
  });

  it('normalizes presence member ids to strings and requires a user id', () => {
    expect(presenceChannelDataSchema.parse({ user_id: 7 })).toEqual({ user_id: '7' });
    expect(presenceChannelDataSchema.safeParse({ user_info: {} }).success).toBe(false);
    expect(presenceChannelDataSchema.safeParse({ user_id: '' }).success).toBe(false);
    expect(userDataSchema.safeParse({ id: 7 }).success).toBe(false);
    expect(userDataSchema.parse({ id: '7', user_info: { a: 1 } })).toEqual({
      id: '7',
      user_info: { a: 1 },
    });
  });
});
