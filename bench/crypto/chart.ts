// The SVG chart of one run, written by hand (no charting dependency): one group per operation,
// one horizontal bar per measured row, on a log scale of operations per second so a 100x gap and
// a 1.2x gap are both readable. Unavailable rows get a label and "not available", no bar.
import { KEY_TYPE_LABEL, OPS } from './impl.js';
import { formatRate, OP_TITLES } from './report.js';
import type { SuiteResult } from './suite.js';

const COLORS: Readonly<Record<string, string>> = {
  wasm: '#2b6cb0',
  'wasm-batch': '#63b3ed',
  facade: '#2c7a7b',
  native: '#2f855a',
  'peculiar-x509': '#c05621',
  noble: '#6b46c1',
  asn1js: '#b7791f',
  openssl: '#4a5568',
  'openssl-limit': '#a0aec0',
};

const WIDTH = 960;
const LABEL_W = 250;
const BAR_W = 560;
const ROW_H = 18;
const GROUP_GAP = 14;
const TOP = 56;

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function decadeLabel(v: number): string {
  return v >= 1e6 ? `${v / 1e6}M` : v >= 1e3 ? `${v / 1e3}k` : String(v);
}

export function renderSvg(result: SuiteResult): string {
  const rows = result.rows;
  const values = rows.flatMap((r) => (r.opsPerSec !== null && r.opsPerSec > 0 ? [r.opsPerSec] : []));
  const lo = Math.pow(10, Math.floor(Math.log10(Math.min(...values, 100))));
  const hi = Math.pow(10, Math.ceil(Math.log10(Math.max(...values, 1000))));
  const x = (v: number) => LABEL_W + (BAR_W * (Math.log10(v) - Math.log10(lo))) / (Math.log10(hi) - Math.log10(lo));

  const body: string[] = [];
  let y = TOP;
  for (const op of OPS) {
    const group = rows.filter((r) => r.op === op);
    if (group.length === 0) continue;
    y += GROUP_GAP;
    body.push(`<text class="group" x="8" y="${y + 12}">${esc(OP_TITLES[op])}</text>`);
    y += ROW_H + 2;
    for (const r of group) {
      const label = `${r.impl}${r.workers !== undefined ? ` x${r.workers} workers` : ''} ${KEY_TYPE_LABEL[r.keyType]}`;
      body.push(`<text class="label" x="${LABEL_W - 8}" y="${y + 13}" text-anchor="end">${esc(label)}</text>`);
      if (r.opsPerSec === null || r.opsPerSec <= 0) {
        body.push(`<text class="na" x="${LABEL_W + 4}" y="${y + 13}">not available</text>`);
      } else {
        const w = Math.max(1, x(r.opsPerSec) - LABEL_W);
        const color = COLORS[r.impl] ?? '#718096';
        const opacity = r.keyType === 'ed25519' ? ' fill-opacity="0.7"' : '';
        const tip = `${r.op} ${label}: ${formatRate(r.opsPerSec)} ops/s (${r.backend})`;
        body.push(`<rect class="bar" x="${LABEL_W}" y="${y + 2}" width="${w.toFixed(1)}" height="${ROW_H - 4}" fill="${color}"${opacity}><title>${esc(tip)}</title></rect>`);
        body.push(`<text class="value" x="${(LABEL_W + w + 6).toFixed(1)}" y="${y + 13}">${esc(formatRate(r.opsPerSec))}/s</text>`);
      }
      y += ROW_H;
    }
  }
  const height = y + 30;

  const grid: string[] = [];
  for (let v = lo; v <= hi * 1.0001; v *= 10) {
    const gx = x(v).toFixed(1);
    grid.push(`<line class="grid" x1="${gx}" y1="${TOP}" x2="${gx}" y2="${y + 6}"/>`);
    grid.push(`<text class="axis" x="${gx}" y="${y + 20}" text-anchor="middle">${decadeLabel(v)}</text>`);
  }

  const e = result.environment;
  const subtitle = `operations per second, log scale; node ${e.node}, ${e.cpus} x ${e.cpu}${result.openssl ? `, ${result.openssl.version}` : ''}; ${e.date.slice(0, 10)}`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="Helvetica, Arial, sans-serif">`,
    '<style>.group{font-size:13px;font-weight:bold;fill:#1a202c}.label,.value,.na{font-size:11px;fill:#2d3748}.na{fill:#a0aec0;font-style:italic}.axis{font-size:10px;fill:#4a5568}.grid{stroke:#e2e8f0;stroke-width:1}</style>',
    `<rect x="0" y="0" width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="8" y="22" font-size="16" font-weight="bold" fill="#1a202c">plat bench crypto</text>`,
    `<text x="8" y="40" font-size="11" fill="#4a5568">${esc(subtitle)}</text>`,
    ...grid,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}
