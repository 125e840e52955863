import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  values: number[];
  color: string;
}

/**
 * A time-series chart drawn with uPlot on a canvas, sized to its container. The canvas is hidden from assistive
 * technology: every chart on a screen has its figures beside it as text or a table.
 */
export function TimeChart(props: { label: string; times: number[]; series: ChartSeries[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const chart = new uPlot(
      {
        width: Math.max(el.clientWidth, 280),
        height: 220,
        series: [{}, ...props.series.map((s) => ({ label: s.label, stroke: s.color, width: 2 }))],
        axes: [{}, { size: 50 }],
        scales: { x: { time: true } },
      },
      [props.times, ...props.series.map((s) => s.values)],
      el,
    );
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(el.clientWidth, 280), height: 220 }),
    );
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [props.times, props.series]);
  return <div ref={box} className="chart" role="img" aria-label={props.label} />;
}
