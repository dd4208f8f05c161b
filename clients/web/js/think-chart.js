/**
 * The moderators' think-time chart: the time before each move as a small bar. Scaled to the longest pause, one
 * long look (a 24.7 s pause among 2 s moves) flattens every other bar into a line and hides the rhythm the chart is
 * for; so an outlier is capped: the bars end at the 90th percentile, the longer pauses reach the top, marked, and
 * the chart says where it ends and how many were longer.
 */

import { h } from './dom.js';
import { svg } from './compete.js';

const CAP_PERCENTILE = 90;
const OUTLIER = 2;
/** Capped only when the longest pause is over this many times the percentile: a steady row is drawn as it is. */

/** The time the bars end at, and the pauses over it: `{top, capped, longest}` (`capped` 0: scaled to the longest). */
export function thinkScale(times) {
  const longest = Math.max(1, ...times);
  const sorted = [...times].sort((a, b) => a - b);
  const percentile = sorted[Math.max(0, Math.ceil((CAP_PERCENTILE / 100) * sorted.length) - 1)] ?? 0;
  if (percentile <= 0 || longest <= OUTLIER * percentile) return { top: longest, capped: 0, longest };
  return { top: percentile, capped: times.filter((time) => time > percentile).length, longest };
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** The chart, and under it where the bars end when one or more long pauses were capped. */
export function thinkChart(times, { width = 160, height = 32 } = {}) {
  if (!times.length) return '\u2013';
  const { top, capped, longest } = thinkScale(times);
  const step = width / times.length;
  const cappedWords = capped
    ? `bars end at ${seconds(top)} (the ${CAP_PERCENTILE}th percentile); ${capped} longer ${capped === 1 ? 'pause reaches' : 'pauses reach'} the top, the longest ${seconds(longest)}`
    : null;
  const chart = svg('svg', { class: 'think-chart', viewBox: `0 0 ${width} ${height}`, width, height, role: 'img',
    'aria-label': `Think times of ${times.length} moves, from ${Math.min(...times)} to ${longest} ms${cappedWords ? `: ${cappedWords}` : ''}` },
  ...times.map((time, index) => {
    const bar = (Math.min(time, top) / top) * height;
    return svg('rect', { class: time > top ? 'capped' : 'bar', x: (index * step).toFixed(1), width: Math.max(1, step - 1).toFixed(1),
      y: (height - bar).toFixed(1), height: bar.toFixed(1) });
  }));
  return capped ? h('span', { class: 'think-times' }, chart, h('small', { class: 'think-cap' }, `capped at ${seconds(top)}: ${capped} longer, up to ${seconds(longest)}`)) : chart;
}
