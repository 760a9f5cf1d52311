import { useTranslation } from 'react-i18next';
import type { DemoAccount } from '../api/get-demo-accounts.js';

interface DemoAccountsProps {
  accounts: readonly DemoAccount[];
  pending: boolean;
  onChoose: (account: DemoAccount) => void;
}

/**
 * Demo mode: every demo account signs in with one click. A button is named by what it shows (name,
 * email, role), so speech input can say what is seen.
 */
export const DemoAccounts = ({ accounts, pending, onChoose }: DemoAccountsProps) => {
  const { t } = useTranslation();
  if (accounts.length === 0) return null;
  return (
    <section className="demo-accounts" aria-labelledby="demo-accounts-heading">
      <h2 className="demo-accounts__heading" id="demo-accounts-heading">
        {t('login.demoHeading')}
      </h2>
      <p className="note">{t('login.demoHint')}</p>
      <ul className="plain-list">
        {accounts.map((account) => (
          <li key={account.email}>
            <button
              type="button"
              className="demo-account"
              disabled={pending}
              onClick={() => onChoose(account)}
            >
              <span className="demo-account__name" dir="auto">
                {account.name}
              </span>
              <span className="demo-account__email">{account.email}</span>
              <span className={`role-chip role-chip--${account.role}`}>
                {t(`login.roles.${account.role}`)}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
};
