interface Capacity {
  daily_limit: number | null;
  used_today: number;
  remaining: number | null;
}

/** Today's used and remaining tier capacity as a meter, with the figures in words beside it. */
export function CapacityBar({ capacity }: { capacity: Capacity }) {
  if (capacity.daily_limit === null) return <span>{capacity.used_today} used · unlimited</span>;
  const text = `${capacity.used_today} of ${capacity.daily_limit} used, ${capacity.remaining ?? 0} left`;
  return (
    <span className="capacity">
      <meter min={0} max={capacity.daily_limit} value={capacity.used_today} aria-label="Capacity used today">
        {text}
      </meter>
      <span>{text}</span>
    </span>
  );
}
