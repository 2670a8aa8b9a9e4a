// The Prometheus text format as client_golang writes it, against lines of real kube-controller-
// manager and kube-apiserver scrapes (the workqueue buckets' `9.999999999999999e-06`, a sum of
// `4.8201e-05`) and expfmt's rules: Go's shortest 'g' floats, HELP and label escaping, families
// by name, samples by label values, labels by name with `le` last, empty families left out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { escapeHelp, escapeLabelValue, exposeText, formatValue, type ExposedFamily } from '../../core/metrics/exposition.js';

describe('Prometheus text exposition', () => {
  it('writes values as expfmt writeFloat does', () => {
    const cases: [number, string][] = [
      [0, '0'], [-0, '0'], [1, '1'], [-1, '-1'], [42, '42'], [0.23, '0.23'], [4.8201e-05, '4.8201e-05'],
      [1e-6, '1e-06'], [1e-6 * 10, '9.999999999999999e-06'], [1e-6 * 10 * 10, '9.999999999999999e-05'], [0.001, '0.001'],
      [123456, '123456'], [1e6, '1e+06'], [1048576, '1.048576e+06'], [1712345678.91, '1.71234567891e+09'],
      [NaN, 'NaN'], [Infinity, '+Inf'], [-Infinity, '-Inf'],
    ];
    for (const [v, want] of cases) assert.equal(formatValue(v), want, `value ${v}`);
  });

  it('escapes HELP texts and label values as expfmt does', () => {
    assert.equal(escapeHelp('two-line\n doc  str\\ing "quoted"'), 'two-line\\n doc  str\\\\ing "quoted"');
    assert.equal(escapeLabelValue('a\\b"c\nd'), 'a\\\\b\\"c\\nd');
  });

  const cases: { name: string; families: ExposedFamily[]; want: string }[] = [
    {
      name: 'a histogram: cumulative buckets, +Inf, sum, count; `le` after the sorted labels',
      families: [{
        name: 'workqueue_queue_duration_seconds', help: '[ALPHA] How long in seconds an item stays in workqueue before being requested.', type: 'histogram',
        samples: [{ labels: [['name', 'ephemeral_volume']], buckets: [[1e-6, 0], [1e-6 * 10, 0], [1e-6 * 100, 1], [0.001, 1]], sum: 4.8201e-05, count: 1 }],
      }],
      want: [
        '# HELP workqueue_queue_duration_seconds [ALPHA] How long in seconds an item stays in workqueue before being requested.',
        '# TYPE workqueue_queue_duration_seconds histogram',
        'workqueue_queue_duration_seconds_bucket{name="ephemeral_volume",le="1e-06"} 0',
        'workqueue_queue_duration_seconds_bucket{name="ephemeral_volume",le="9.999999999999999e-06"} 0',
        'workqueue_queue_duration_seconds_bucket{name="ephemeral_volume",le="9.999999999999999e-05"} 1',
        'workqueue_queue_duration_seconds_bucket{name="ephemeral_volume",le="0.001"} 1',
        'workqueue_queue_duration_seconds_bucket{name="ephemeral_volume",le="+Inf"} 1',
        'workqueue_queue_duration_seconds_sum{name="ephemeral_volume"} 4.8201e-05',
        'workqueue_queue_duration_seconds_count{name="ephemeral_volume"} 1',
        '',
      ].join('\n'),
    },
    {
      name: 'a summary without objectives: its sum and count only',
      families: [{
        name: 'apiserver_admission_step_admission_duration_seconds_summary', help: '[ALPHA] Admission sub-step latency summary.', type: 'summary',
        samples: [{ labels: [['type', 'validate'], ['operation', 'CREATE'], ['rejected', 'false']], sum: 0.25, count: 2 }],
      }],
      want: [
        '# HELP apiserver_admission_step_admission_duration_seconds_summary [ALPHA] Admission sub-step latency summary.',
        '# TYPE apiserver_admission_step_admission_duration_seconds_summary summary',
        'apiserver_admission_step_admission_duration_seconds_summary_sum{operation="CREATE",rejected="false",type="validate"} 0.25',
        'apiserver_admission_step_admission_duration_seconds_summary_count{operation="CREATE",rejected="false",type="validate"} 2',
        '',
      ].join('\n'),
    },
    {
      name: 'families by name, samples by label values in label-name order, labels by name, empty families left out',
      families: [
        { name: 'workqueue_depth', help: '[ALPHA] Current depth of workqueue', type: 'gauge', samples: [{ labels: [['name', 'b']], value: 2 }, { labels: [['name', 'a']], value: 0 }] },
        { name: 'empty_total', help: 'nothing yet', type: 'counter', samples: [] },
        {
          name: 'rest_client_requests_total', help: '[ALPHA] Number of HTTP requests, partitioned by status code, method, and host.', type: 'counter',
          samples: [
            { labels: [['method', 'PUT'], ['code', '200'], ['host', '127.0.0.1:6443']], value: 3 },
            { labels: [['method', 'GET'], ['code', '200'], ['host', '127.0.0.1:6443']], value: 1e6 },
            { labels: [['method', 'GET'], ['code', '<error>'], ['host', '127.0.0.1:6443']], value: 1 },
          ],
        },
        { name: 'process_start_time_seconds', help: 'Start time of the process since unix epoch in seconds.', type: 'gauge', samples: [{ labels: [], value: 1712345678.91 }] },
      ],
      want: [
        '# HELP process_start_time_seconds Start time of the process since unix epoch in seconds.',
        '# TYPE process_start_time_seconds gauge',
        'process_start_time_seconds 1.71234567891e+09',
        '# HELP rest_client_requests_total [ALPHA] Number of HTTP requests, partitioned by status code, method, and host.',
        '# TYPE rest_client_requests_total counter',
        'rest_client_requests_total{code="200",host="127.0.0.1:6443",method="GET"} 1e+06',
        'rest_client_requests_total{code="200",host="127.0.0.1:6443",method="PUT"} 3',
        'rest_client_requests_total{code="<error>",host="127.0.0.1:6443",method="GET"} 1',
        '# HELP workqueue_depth [ALPHA] Current depth of workqueue',
        '# TYPE workqueue_depth gauge',
        'workqueue_depth{name="a"} 0',
        'workqueue_depth{name="b"} 2',
        '',
      ].join('\n'),
    },
    {
      name: 'escaped HELP and label values',
      families: [{ name: 'name', help: 'two-line\n doc  str\\ing', type: 'counter', samples: [{ labels: [['labelname', 'val"1\\\n']], value: NaN }] }],
      want: '# HELP name two-line\\n doc  str\\\\ing\n# TYPE name counter\nname{labelname="val\\"1\\\\\\n"} NaN\n',
    },
    { name: 'nothing to expose', families: [], want: '' },
  ];
  for (const c of cases) it(c.name, () => assert.equal(exposeText(c.families), c.want));
});
