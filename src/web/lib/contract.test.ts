import { MESSAGE_MAX_LENGTH as sharedMax, paths } from '../../shared/api.js';
import { apiPaths, MESSAGE_MAX_LENGTH } from './contract.js';

describe('web contract mirror', () => {
  it('uses the same paths as the shared contract', () => {
    expect(apiPaths.config).toBe(paths.config);
    expect(apiPaths.login).toBe(paths.login);
    expect(apiPaths.logout).toBe(paths.logout);
    expect(apiPaths.initialData).toBe(paths.initialData);
    expect(apiPaths.getMessage).toBe(paths.getMessage);
    expect(apiPaths.sendMessage).toBe(paths.sendMessage);
    expect(apiPaths.unseen(7)).toBe(paths.unseen(7));
    expect(apiPaths.archive(7)).toBe(paths.archive(7));
    expect(apiPaths.unarchive(7)).toBe(paths.unarchive(7));
    expect(apiPaths.broadcastingAuth).toBe(paths.broadcastingAuth);
    expect(MESSAGE_MAX_LENGTH).toBe(sharedMax);
  });
});
