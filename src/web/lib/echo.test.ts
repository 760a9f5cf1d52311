import { createReconnectDetector } from './echo.js';

describe('reconnect detection (pusher connection states)', () => {
  it('reports "connected" again after a drop, not the first connect', () => {
    const onReconnected = vi.fn();
    const detect = createReconnectDetector(onReconnected);
    ['initialized', 'connecting', 'connected'].forEach(detect);
    expect(onReconnected).not.toHaveBeenCalled();
    ['unavailable', 'connecting', 'connected'].forEach(detect);
    expect(onReconnected).toHaveBeenCalledTimes(1);
    ['disconnected', 'connected'].forEach(detect);
    expect(onReconnected).toHaveBeenCalledTimes(2);
    detect('connected');
    expect(onReconnected).toHaveBeenCalledTimes(2);
  });
});
