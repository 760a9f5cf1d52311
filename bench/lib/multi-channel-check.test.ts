import { multiChannelReceivers, publishMarker, tallyMultiChannel } from './multi-channel-check.js';

const arrival = (marker: number, receiverId: number) => ({
  receiverId,
  userId: marker,
  online: true,
  receivedAt: 0,
});

describe('multi-channel publish check', () => {
  it('names the first users of each instance, at most the given number per instance', () => {
    const placement = new Map([
      [1, 0],
      [2, 1],
      [3, 0],
      [4, 1],
      [5, 0],
    ]);
    expect(multiChannelReceivers(placement, 2)).toEqual([1, 2, 3, 4]);
  });

  it('counts missing, doubled and misdelivered copies of the marked publishes; other presence is ignored', () => {
    const [a, b] = [publishMarker(0), publishMarker(1)];
    const tally = tallyMultiChannel(
      [
        arrival(a, 1),
        arrival(a, 2),
        arrival(a, 2), // doubled
        arrival(b, 1), // b never reached 2: missing
        arrival(b, 9), // not named
        arrival(42, 1), // a real user's presence: not this check's
      ],
      [1, 2],
      2,
    );
    expect(tally).toEqual({
      publishes: 2,
      channelsPerPublish: 2,
      missing: 1,
      doubled: 1,
      misdelivered: 1,
    });
  });

  it('every copy once is a clean tally', () => {
    const arrivals = [0, 1].flatMap((index) =>
      [1, 2, 3].map((r) => arrival(publishMarker(index), r)),
    );
    expect(tallyMultiChannel(arrivals, [1, 2, 3], 2)).toMatchObject({
      missing: 0,
      doubled: 0,
      misdelivered: 0,
    });
  });
});
