import { useEffect, useState } from 'react';

/** The time now, again every `everyMs`. */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** Whether the customer's 24 h service window is open, flipping to false the moment it closes. */
export function useWindowOpen(openUntil: string | null): boolean {
  const until = openUntil === null ? 0 : Date.parse(openUntil);
  const [open, setOpen] = useState(() => until > Date.now());
  useEffect(() => {
    const left = until - Date.now();
    setOpen(left > 0);
    if (left <= 0) return;
    const timer = setTimeout(() => setOpen(false), left);
    return () => clearTimeout(timer);
  }, [until]);
  return open;
}

/** `23 h 05 min 09 s` */
export function leftText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h > 0 ? `${h} h ` : ''}${pad(m)} min ${pad(s % 60)} s`;
}

/** The service window's time left, ticking each second. */
export function WindowCountdown({ openUntil }: { openUntil: string }) {
  const now = useNow(1000);
  return (
    <p className="window window-open" role="timer">
      Service window open: <strong>{leftText(Date.parse(openUntil) - now)}</strong> left
    </p>
  );
}
