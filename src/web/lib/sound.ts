export interface NotificationSound {
  /** Plays the chime; silently does nothing when the browser refuses. */
  play(): void;
  /** Call from a user gesture so that later plays (without a gesture) are allowed. */
  unlock(): void;
}

export const NOTIFICATION_SOUND_URL = '/sounds/notification.wav';

export const createNotificationSound = (
  src: string = NOTIFICATION_SOUND_URL,
): NotificationSound => {
  let audio: HTMLAudioElement | null = null;
  let unlocked = false;
  const element = (): HTMLAudioElement => {
    if (!audio) {
      audio = new Audio(src);
      audio.preload = 'auto';
      audio.volume = 0.6;
    }
    return audio;
  };
  const swallow = (error: unknown) => {
    console.debug('notification sound not played', error);
  };

  return {
    play() {
      const el = element();
      el.muted = false;
      el.currentTime = 0;
      void el.play()?.catch(swallow);
    },
    unlock() {
      if (unlocked) return;
      unlocked = true;
      const el = element();
      el.muted = true;
      const attempt = el.play();
      void attempt
        ?.then(() => {
          el.pause();
          el.currentTime = 0;
          el.muted = false;
        })
        .catch((error: unknown) => {
          el.muted = false;
          unlocked = false;
          swallow(error);
        });
    },
  };
};

/** Unlocks the sound on the first pointer or key gesture anywhere on the page. */
export const unlockOnFirstGesture = (
  sound: NotificationSound,
  target: Window = window,
): (() => void) => {
  const events = ['pointerdown', 'keydown', 'touchstart'] as const;
  const handler = () => {
    sound.unlock();
    remove();
  };
  const remove = () => events.forEach((name) => target.removeEventListener(name, handler, true));
  events.forEach((name) =>
    target.addEventListener(name, handler, { capture: true, passive: true }),
  );
  return remove;
};
