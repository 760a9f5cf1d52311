import { openDatabase } from '../../src/server/db/database.js';
import { NILE, SARA } from '../../test-support/accounts.js';
import { signInOverHttp } from '../../test-support/http-session.js';
import { initialData } from '../../test-support/messaging.js';

/**
 * Makes the demo's Sara a user the host knows by `externalId` (as after importing its existing
 * users), and answers the deep link to her demo conversation with Nile Software
 * (`/messages?target=…&tab=…`), where the sign-in link tests send her.
 */
export const hostKnowsSara = async (
  messengerUrl: string,
  databaseUrl: string,
  externalId: string,
): Promise<string> => {
  const db = openDatabase(databaseUrl);
  try {
    await db.kysely
      .updateTable('users')
      .set({ external_id: externalId })
      .where('email', '=', SARA.email)
      .execute();
  } finally {
    await db.destroy();
  }
  const data = await initialData(await signInOverHttp(messengerUrl, SARA.email));
  const withNile = data.messengerUsers.find((item) => item.company.user.name === NILE.name);
  if (!withNile) throw new Error('the demo conversation with Nile Software is missing');
  return `/messages?target=${withNile.company_id}&tab=${withNile.id}`;
};
