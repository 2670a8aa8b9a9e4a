// `plat bench nodeagents` at a small size: the agents bootstrap from one token, register and hold
// their Leases past one renewal, and the report's checks pass (no timing is asserted).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderNodeAgentsReport } from '../../bench/nodeagents/report.js';
import { runNodeAgentsBench } from '../../bench/nodeagents/run.js';

describe('plat bench nodeagents', () => {
  it('bootstraps every agent once, registers its Node and keeps its Lease fresh', async () => {
    const r = await runNodeAgentsBench({ agents: 3, seconds: 11, staggerMs: 0 });
    assert.deepEqual(r.checks.problems, []);
    assert.equal(r.checks.certificates, 3);
    assert.equal(r.checks.csrs, 3);
    assert.equal(r.checks.nodes, 3);
    assert.equal(r.checks.freshLeases, 3);
    assert.ok(r.server.memory && r.server.memory.peakRssMiB > 0, 'the API server\'s memory was read');
    assert.match(renderNodeAgentsReport(r), /every agent: one CSR, issued/);
  });
});
