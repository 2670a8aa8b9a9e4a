// The registry as component-base's KubeRegistry behaves under the metrics flags: help annotated
// with the stability level, --disabled-metrics hides a family, a metric deprecated before the
// current minor is hidden unless --show-hidden-metrics-for-version, label values outside an
// allow-list become `unexpected` (and are counted), and the flags' checks with upstream's texts.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parseStringToString } from '../../core/flags/parse-value.js';
import { MetricsRegistry } from '../../core/metrics/registry.js';
import {
  allowListFrom, allowListProblem, DEFAULT_METRICS_SETTINGS, readAllowListManifest, showHiddenMetricsProblem,
} from '../../core/metrics/settings.js';
import { tempDir } from '../helpers/plat.js';

/** The sample lines of one family. */
const lines = (r: MetricsRegistry, family: string) => r.expose().split('\n').filter((l) => l.startsWith(`${family} `) || l.startsWith(`${family}{`));

describe('metrics registry', () => {
  it('annotates help with the stability level and exposes families without labels at 0', () => {
    const r = new MetricsRegistry('1.32');
    r.counter({ name: 'test_alpha_total', help: 'an alpha counter' });
    r.gauge({ name: 'test_stable', help: 'a stable gauge', stabilityLevel: 'STABLE' }).labels().set(3);
    const text = r.expose();
    assert.match(text, /^# HELP test_alpha_total \[ALPHA\] an alpha counter\n# TYPE test_alpha_total counter\ntest_alpha_total 0$/m);
    assert.match(text, /^# HELP test_stable \[STABLE\] a stable gauge\n# TYPE test_stable gauge\ntest_stable 3$/m);
    assert.match(text, /^# HELP disabled_metrics_total \[BETA\] The count of disabled metrics\.$/m);
  });

  it('leaves out disabled families and counts them', () => {
    const r = new MetricsRegistry('1.32');
    r.configure({ ...DEFAULT_METRICS_SETTINGS, disabled: new Set(['test_total', 'no_such_metric']), disabledCount: 2 });
    r.counter({ name: 'test_total', help: 'h' }).labels().inc();
    assert.doesNotMatch(r.expose(), /test_total/);
    assert.deepEqual(lines(r, 'disabled_metrics_total'), ['disabled_metrics_total 2']);
  });

  it('hides a metric deprecated before the current minor unless hidden metrics are shown; disabling wins', () => {
    const make = (showHidden: boolean, disabled: string[] = []) => {
      const r = new MetricsRegistry('1.32');
      r.configure({ ...DEFAULT_METRICS_SETTINGS, showHidden, disabled: new Set(disabled) });
      r.counter({ name: 'old_total', help: 'old', deprecatedVersion: '1.31.0' }).labels().inc();
      r.counter({ name: 'current_total', help: 'current', deprecatedVersion: '1.32.0' }).labels().inc();
      return r;
    };
    const hidden = make(false);
    assert.doesNotMatch(hidden.expose(), /old_total/);
    assert.match(hidden.expose(), /^# HELP current_total \[ALPHA\] \(Deprecated since 1\.32\.0\) current$/m);
    assert.deepEqual(lines(hidden, 'hidden_metrics_total'), ['hidden_metrics_total 1']);
    assert.match(make(true).expose(), /^# HELP old_total \[ALPHA\] \(Deprecated since 1\.31\.0\) old\n# TYPE old_total counter\nold_total 1$/m);
    assert.doesNotMatch(make(true, ['old_total']).expose(), /old_total/);
  });

  it('records label values outside an allow-list as `unexpected`, counting each', () => {
    const r = new MetricsRegistry('1.32');
    r.configure({ ...DEFAULT_METRICS_SETTINGS, allowList: allowListFrom(parseStringToString('test_requests_total,code=200,404')) });
    const c = r.counter({ name: 'test_requests_total', help: 'h', labelNames: ['code', 'method'] });
    c.labels('200', 'GET').inc();
    c.labels('500', 'GET').inc();
    c.labels('503', 'GET').inc();
    assert.deepEqual(lines(r, 'test_requests_total'), ['test_requests_total{code="200",method="GET"} 1', 'test_requests_total{code="unexpected",method="GET"} 2']);
    assert.deepEqual(lines(r, 'cardinality_enforcement_unexpected_categorizations_total'), ['cardinality_enforcement_unexpected_categorizations_total 2']);
  });

  it('constrains values read at scrape time too; raw families (the process collector) are not annotated', () => {
    const r = new MetricsRegistry('1.32');
    r.configure({ ...DEFAULT_METRICS_SETTINGS, allowList: allowListFrom({ 'test_ages,name': 'a' }) });
    r.collector('gauge', { name: 'test_ages', help: 'h', labelNames: ['name'] }, () => [[['a'], 1], [['b'], 2]]);
    r.collector('gauge', { name: 'test_raw', help: 'raw help', raw: true }, () => [[[], 5]]);
    assert.deepEqual(lines(r, 'test_ages'), ['test_ages{name="a"} 1', 'test_ages{name="unexpected"} 2']);
    assert.match(r.expose(), /^# HELP test_raw raw help$/m);
  });
});

describe('metrics flags', () => {
  it('parses --allow-metric-labels as pflag stringToString', () => {
    assert.deepEqual(parseStringToString('workqueue_adds_total,name=certificate,other'), { 'workqueue_adds_total,name': 'certificate,other' });
    assert.deepEqual(parseStringToString('"a,b=1,2","c,d=3"'), { 'a,b': '1,2', 'c,d': '3' });
    assert.throws(() => parseStringToString('novalue'), /novalue must be formatted as key=value/);
  });

  it('checks values with 1.32\'s messages (names to disable are not checked)', () => {
    assert.equal(showHiddenMetricsProblem('', '1.32'), undefined);
    assert.equal(showHiddenMetricsProblem('1.31', '1.32'), undefined);
    assert.equal(showHiddenMetricsProblem('1.30', '1.32'), '--show-hidden-metrics-for-version must be omitted or have the value \'1.31\'. Only the previous minor version is allowed');
    assert.equal(allowListProblem({ 'metric,label': 'a' }), undefined);
    for (const key of ['metric', 'metric,label,extra', 'metric,1label']) {
      assert.equal(allowListProblem({ [key]: 'a' }), '--allow-metric-labels must have a list of kv pair with format `metricName:labelName=labelValue, labelValue,...`', key);
    }
  });

  it('reads a manifest of the same map; one that cannot be read or parsed is logged and left out, as 1.32', () => {
    const dir = tempDir();
    const logged: string[] = [];
    const log = (m: string) => { logged.push(m); };
    const good = path.join(dir, 'good.yaml');
    writeFileSync(good, 'workqueue_adds_total,name: "certificate,other"\n');
    assert.deepEqual(readAllowListManifest(good, log), { 'workqueue_adds_total,name': 'certificate,other' });
    assert.deepEqual(logged, []);
    assert.equal(readAllowListManifest(path.join(dir, 'missing.yaml'), log), undefined);
    assert.match(logged[0]!, /^Failed to read allow list manifest: open .*missing\.yaml: no such file or directory$/);
    const notMap = path.join(dir, 'list.yaml');
    writeFileSync(notMap, '- a\n');
    assert.equal(readAllowListManifest(notMap, log), undefined);
    assert.match(logged[1]!, /^Failed to parse allow list manifest: /);
    // Upstream's split indexes past the end of such a key and the process dies; plat says why.
    const noComma = path.join(dir, 'bad.yaml');
    writeFileSync(noComma, 'workqueue_adds_total: certificate\n');
    assert.throws(() => readAllowListManifest(noComma, log), /^Error: the key "workqueue_adds_total" is not "<MetricName>,<LabelName>"$/);
  });
});
