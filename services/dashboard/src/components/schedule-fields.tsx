import { useState } from 'react';
import { LOCAL_ZONE, wallClock, ZONES } from './zones';

/** A send's optional schedule: "later" or not, the wall-clock time and its zone. */
export function useSchedule() {
  const [later, setLater] = useState(false);
  const [at, setAt] = useState('');
  const [zone, setZone] = useState(LOCAL_ZONE);
  return {
    later,
    setLater,
    at,
    setAt,
    zone,
    setZone,
    /** The request's `scheduled_at` and `timezone`, or nothing when it goes now. */
    request: later && at ? { scheduled_at: wallClock(at), timezone: zone } : {},
  };
}

export type Schedule = ReturnType<typeof useSchedule>;

/** "Schedule for later", and when checked the time and the zone picker. */
export function ScheduleFields({ schedule: s }: { schedule: Schedule }) {
  return (
    <>
      <label className="inline">
        <input type="checkbox" checked={s.later} onChange={(e) => s.setLater(e.target.checked)} /> Schedule
        for later
      </label>
      {s.later && (
        <>
          <label>
            Send at
            <input type="datetime-local" required value={s.at} onChange={(e) => s.setAt(e.target.value)} />
          </label>
          <label>
            Time zone
            <select value={s.zone} onChange={(e) => s.setZone(e.target.value)}>
              {ZONES.map((z) => (
                <option key={z}>{z}</option>
              ))}
            </select>
          </label>
        </>
      )}
    </>
  );
}
