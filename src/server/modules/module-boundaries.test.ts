import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The server's module walls are kept by `npm run lint` (eslint.config.js, `local/import-boundaries`):
 * a module reaches another through its service, never through its repository or presenter.
 */
const root = resolve(import.meta.dirname, '../../..');

const boundaryErrors = async (filePath: string, code: string): Promise<string[]> => {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(code, { filePath: resolve(root, filePath) });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'local/import-boundaries')
    .map((message) => message.message);
};

describe('server module boundaries', () => {
  it("refuses another module's repository or presenter, and allows its service", async () => {
    const file = 'src/server/modules/settings/settings.service.ts';
    expect(
      await boundaryErrors(
        file,
        "import { createMessengerRepository } from '../messenger/messenger.repository.js';\nexport const x = createMessengerRepository;\n",
      ),
    ).toEqual([
      '"../messenger/messenger.repository.js": a module reaches another through its service, never its repository or presenter.',
    ]);
    expect(
      await boundaryErrors(
        file,
        "import { presentChat } from '../messenger/messenger.presenter.js';\nexport const x = presentChat;\n",
      ),
    ).toHaveLength(1);
    expect(
      await boundaryErrors(
        file,
        "import { createMessengerService } from '../messenger/messenger.service.js';\nexport const x = createMessengerService;\n",
      ),
    ).toEqual([]);
  }, 60_000);

  it('lets a module use its own repository', async () => {
    expect(
      await boundaryErrors(
        'src/server/modules/settings/settings.service.ts',
        "import { createSettingsRepository } from './settings.repository.js';\nexport const x = createSettingsRepository;\n",
      ),
    ).toEqual([]);
  }, 60_000);
});
