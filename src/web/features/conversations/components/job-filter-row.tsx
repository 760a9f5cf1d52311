import { useTranslation } from 'react-i18next';
import type { Job } from '../../../../shared/models.js';
import { LineIcon } from '../../../components/line-icon.js';

/** The job filter (all jobs, or one) and the Filter button that submits the panel's search form. */
export const JobFilterRow = ({
  jobs,
  jobFilter,
  onJobFilterChange,
  filtering,
  hidden,
}: {
  jobs: readonly Job[];
  /** The chosen job's id ('' for all jobs). */
  jobFilter: string;
  onJobFilterChange: (value: string) => void;
  /** A filter is being applied (the button is busy). */
  filtering: boolean;
  /** Searching messages: the row is hidden (kept in place). */
  hidden: boolean;
}) => {
  const { t } = useTranslation();
  const selectedJob = jobs.find((job) => String(job.id) === jobFilter);
  return (
    <div className={`conversation-panel__filter-row${hidden ? ' is-hidden' : ''}`}>
      <select
        className="input select"
        data-testid="job-filter"
        aria-label={t('conversations.jobFilterLabel')}
        title={selectedJob ? selectedJob.title || t('conversations.noTitle') : undefined}
        value={jobFilter}
        onChange={(event) => onJobFilterChange(event.target.value)}
      >
        <option value="">{t('conversations.allJobs')}</option>
        {jobs.map((job) => (
          <option key={job.id} value={String(job.id)} title={job.title || undefined}>
            {job.title || t('conversations.noTitle')}
          </option>
        ))}
      </select>
      <button type="submit" className="button button--secondary" aria-busy={filtering}>
        <LineIcon path="M4 5h16l-6 7.5V19l-4 1.5v-8L4 5z" size={16} strokeWidth={1.8} />
        <span>{t('conversations.filter')}</span>
      </button>
    </div>
  );
};
