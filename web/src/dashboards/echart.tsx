import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendPlainComponent, TooltipComponent } from 'echarts/components';
import { init, use as install, type ECharts } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { ChartOption } from './options';

// Only the parts the dashboards draw: ECharts' full build is several times this chunk.
install([BarChart, LineChart, GridComponent, LegendPlainComponent, TooltipComponent, SVGRenderer]);

/**
 * One ECharts chart, drawn as SVG into a box that is an image to assistive technology:
 * `label` is its summary in words (the chart's table beside it holds every number). Its
 * own module, loaded lazily (chart-panel.tsx), so ECharts never enters another chunk.
 */
export default function EChart({
  option,
  label,
  height,
}: {
  readonly option: ChartOption;
  readonly label: string;
  readonly height: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const instance = init(element, undefined, { renderer: 'svg' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(element);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  // The SVG inside says nothing a reader could use (it would be announced as an unnamed
  // image): the box is the image, and its label is the summary.
  return (
    <div role="img" aria-label={label}>
      <div ref={box} aria-hidden="true" style={{ width: '100%', height }} />
    </div>
  );
}
