import PusherServer from 'pusher';
import { describe, expect, it } from 'vitest';
import { safeEqual } from '../lib/crypto.js';
import {
  channelStringToSign,
  hmacSha256Hex,
  md5Hex,
  signChannel,
  signUser,
  verifyChannelAuth,
  verifyUserAuth,
} from './signatures.js';

const credentials = { key: 'test-key', secret: 'test-secret' };
/** The official server library is the reference implementation. */
const reference = new PusherServer({ appId: '1', ...credentials, host: '127.0.0.1' });

describe('signatures', () => {
  it('computes hex HMAC-SHA256 and MD5', () => {
    // RFC 4231 test case 2.
    expect(hmacSha256Hex('Jefe', 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
    expect(md5Hex('')).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(md5Hex(Buffer.from('abc'))).toBe('900150983cd24fb0d6963f7d28e17f72');
  });

  it('signs private channels exactly like the official pusher library', () => {
    const expected = reference.authorizeChannel('123.456', 'private-chat.7');
    expect(signChannel(credentials, '123.456', 'private-chat.7')).toBe(expected.auth);
  });

  it('signs presence channels (with channel_data) exactly like the official pusher library', () => {
    const member = { user_id: '7', user_info: { name: 'Sara' } };
    const expected = reference.authorizeChannel('1.2', 'presence-room', member);
    const channelData = JSON.stringify(member);
    expect(expected.channel_data).toBe(channelData);
    expect(signChannel(credentials, '1.2', 'presence-room', channelData)).toBe(expected.auth);
  });

  it('signs user authentication exactly like the official pusher library', () => {
    const expected = reference.authenticateUser('9.8', { id: '7', user_info: { name: 'Sara' } });
    expect(signUser(credentials, '9.8', expected.user_data)).toBe(expected.auth);
  });

  it('verifies only the signature of this socket, channel and data', () => {
    const auth = signChannel(credentials, '1.1', 'private-chat.1');
    expect(verifyChannelAuth(credentials, auth, '1.1', 'private-chat.1')).toBe(true);
    // Transplanted to another socket, or to another channel.
    expect(verifyChannelAuth(credentials, auth, '1.2', 'private-chat.1')).toBe(false);
    expect(verifyChannelAuth(credentials, auth, '1.1', 'private-chat.2')).toBe(false);
    // Signed with another secret, or carrying another key.
    expect(
      verifyChannelAuth(
        credentials,
        signChannel({ ...credentials, secret: 'x' }, '1.1', 'private-chat.1'),
        '1.1',
        'private-chat.1',
      ),
    ).toBe(false);
    expect(
      verifyChannelAuth(
        credentials,
        auth.replace('test-key', 'other-key'),
        '1.1',
        'private-chat.1',
      ),
    ).toBe(false);
    // Malformed.
    expect(verifyChannelAuth(credentials, undefined, '1.1', 'private-chat.1')).toBe(false);
    expect(verifyChannelAuth(credentials, '', '1.1', 'private-chat.1')).toBe(false);
    expect(verifyChannelAuth(credentials, `${auth}0`, '1.1', 'private-chat.1')).toBe(false);
    expect(verifyChannelAuth(credentials, auth.toUpperCase(), '1.1', 'private-chat.1')).toBe(false);
  });

  it('binds presence signatures to the channel_data', () => {
    const data = JSON.stringify({ user_id: '1' });
    const auth = signChannel(credentials, '1.1', 'presence-room', data);
    expect(verifyChannelAuth(credentials, auth, '1.1', 'presence-room', data)).toBe(true);
    expect(
      verifyChannelAuth(
        credentials,
        auth,
        '1.1',
        'presence-room',
        JSON.stringify({ user_id: '2' }),
      ),
    ).toBe(false);
    expect(verifyChannelAuth(credentials, auth, '1.1', 'presence-room')).toBe(false);
    expect(channelStringToSign('1.1', 'presence-room', data)).toBe(`1.1:presence-room:${data}`);
  });

  it('verifies user signatures for this socket only', () => {
    const userData = JSON.stringify({ id: '5' });
    const auth = signUser(credentials, '3.3', userData);
    expect(verifyUserAuth(credentials, auth, '3.3', userData)).toBe(true);
    expect(verifyUserAuth(credentials, auth, '3.4', userData)).toBe(false);
    expect(verifyUserAuth(credentials, auth, '3.3', JSON.stringify({ id: '6' }))).toBe(false);
  });

  it('compares in constant time and handles different lengths', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
    expect(safeEqual('é', 'e')).toBe(false);
  });
});
