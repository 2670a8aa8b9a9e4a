// The SVG chart of a run, written by hand like bench/crypto's: one group per key type, a bar for
// plat, one for cfssl and one for cfssl stored (when measured) on a linear scale of certificates per second, the ratios beside the group.
import { KEY_LABEL } from './options.js';
import type { IssueBenchResult } from './run.js';

const WIDTH = 760;
const LABEL_W = 150;
const BAR_W = 470;
const ROW_H = 22;
const TOP = 74;
const COLORS = { plat: '#2b6cb0', cfssl: '#4a5568', cfsslStored: '#a0aec0' } as const;
const LABELS = { plat: 'plat', cfssl: 'cfssl', cfsslStored: 'cfssl stored' } as const;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const fmt = (v: number) => Math.round(v).toLocaleString('en-US');

/** A round axis maximum at or above `v` that splits into five round steps. */
function niceMax(v: number): number {
  const p = Math.pow(10, Math.floor(Math.log10(Math.max(v, 1))));
  return [1, 1.5, 2, 2.5, 3, 4, 5, 7.5, 10].map((m) => m * p).find((m) => m >= v) ?? 10 * p;
}

export function renderSvg(result: IssueBenchResult): string {
  const values = result.runs.flatMap((r) => [r.plat.numbers?.certsPerSec ?? 0, r.cfssl.numbers?.certsPerSec ?? 0, r.cfsslStored.numbers?.certsPerSec ?? 0]);
  const max = niceMax(Math.max(...values, 1));
  const x = (v: number) => (BAR_W * v) / max;
  const body: string[] = [];
  let y = TOP;
  for (const r of result.runs) {
    const ratios = [
      ...(r.ratio !== null ? [`plat / cfssl ${r.ratio.toFixed(2)}x`] : []),
      ...(r.storedRatio !== null ? [`plat / cfssl stored ${r.storedRatio.toFixed(2)}x`] : []),
    ];
    body.push(`<text class="group" x="8" y="${y + 14}">${esc(KEY_LABEL[r.keyType] ?? r.keyType)}${ratios.length ? ` — ${ratios.join(', ')}` : ''}</text>`);
    y += ROW_H;
    // The stored setup gets a bar only when it was asked for (--cfssl-stored).
    const names = result.cfssl.storedSetup ? (['plat', 'cfssl', 'cfsslStored'] as const) : (['plat', 'cfssl'] as const);
    for (const name of names) {
      const t = r[name];
      body.push(`<text class="label" x="${LABEL_W - 8}" y="${y + 15}" text-anchor="end">${LABELS[name]}</text>`);
      if (!t.numbers) {
        body.push(`<text class="na" x="${LABEL_W + 4}" y="${y + 15}">not measured<title>${esc(t.reason ?? '')}</title></text>`);
      } else {
        const w = Math.max(1, x(t.numbers.certsPerSec));
        const tip = `${LABELS[name]} ${KEY_LABEL[r.keyType]}: ${fmt(t.numbers.certsPerSec)} certs/s, p50 ${t.numbers.p50Ms.toFixed(1)} ms, p99 ${t.numbers.p99Ms.toFixed(1)} ms`;
        body.push(`<rect x="${LABEL_W}" y="${y + 3}" width="${w.toFixed(1)}" height="${ROW_H - 6}" fill="${COLORS[name]}"><title>${esc(tip)}</title></rect>`);
        body.push(`<text class="value" x="${(LABEL_W + w + 6).toFixed(1)}" y="${y + 15}">${fmt(t.numbers.certsPerSec)}/s (p99 ${t.numbers.p99Ms.toFixed(0)} ms)</text>`);
      }
      y += ROW_H;
    }
    y += 10;
  }
  const grid: string[] = [];
  for (let i = 0; i <= 5; i++) {
    const gx = (LABEL_W + (BAR_W * i) / 5).toFixed(1);
    grid.push(`<line class="grid" x1="${gx}" y1="${TOP}" x2="${gx}" y2="${y}"/>`);
    grid.push(`<text class="axis" x="${gx}" y="${y + 14}" text-anchor="middle">${fmt((max * i) / 5)}</text>`);
  }
  const height = y + 30;
  const e = result.environment;
  const c = result.config;
  const subtitle = `certificates per second, CSR to certificate over HTTP; ${c.csrs} CSRs, concurrency ${c.concurrency}; node ${e.node}, ${e.cpus} x ${e.cpu}; ${e.date.slice(0, 10)}`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="Helvetica, Arial, sans-serif">`,
    '<style>.group{font-size:13px;font-weight:bold;fill:#1a202c}.label,.value,.na{font-size:11px;fill:#2d3748}.na{fill:#a0aec0;font-style:italic}.axis{font-size:10px;fill:#4a5568}.grid{stroke:#e2e8f0;stroke-width:1}</style>',
    `<rect x="0" y="0" width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    '<text x="8" y="22" font-size="16" font-weight="bold" fill="#1a202c">plat bench issue</text>',
    `<text x="8" y="40" font-size="11" fill="#4a5568">${esc(subtitle)}</text>`,
    '<text x="8" y="56" font-size="11" fill="#4a5568">plat: create, approve, certificate on a watch (HTTPS, LMDB); cfssl serve: one sign request (HTTP; stored: HTTPS, mTLS, sqlite)</text>',
    ...grid,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}
