import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
// Added by the campaign service; every other series the dashboard reads is defined in the code today.
const NOT_YET_DEFINED = new Set(['bm_campaign_recipients_total', 'bm_campaigns_active']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist' || name === 'test') return [];
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

interface Panel {
  type: string;
  datasource?: { uid?: string };
  targets?: Array<{ expr: string }>;
}

describe('the Grafana dashboard in infra/grafana', () => {
  const dashboard = JSON.parse(
    readFileSync(join(ROOT, 'infra', 'grafana', 'business-messaging.json'), 'utf8'),
  ) as { templating: { list: Array<{ name: string; type: string }> }; panels: Panel[] };
  const code = [...sources(join(ROOT, 'libs')), ...sources(join(ROOT, 'services'))]
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');

  it('when imported, then every panel queries the Prometheus data source chosen in its variable', () => {
    expect(dashboard.templating.list).toContainEqual(
      expect.objectContaining({ name: 'datasource', type: 'datasource' }),
    );
    const graphs = dashboard.panels.filter((p) => p.type !== 'row');
    expect(graphs.length).toBeGreaterThan(10);
    for (const panel of graphs) expect(panel.datasource?.uid).toBe('${datasource}');
  });

  it('when a panel reads a bm_ series, then the code defines that metric (histograms by their base name)', () => {
    const exprs = dashboard.panels.flatMap((p) => p.targets ?? []).map((t) => t.expr);
    const names = new Set(
      exprs.flatMap((e) => e.match(/\bbm_[a-z_]+/g) ?? []).map((n) => n.replace(/_(bucket|count|sum)$/, '')),
    );
    expect(names.size).toBeGreaterThan(8);
    const undefinedNames = [...names].filter((n) => !NOT_YET_DEFINED.has(n) && !code.includes(`'${n}'`));
    expect(undefinedNames).toEqual([]);
  });

  it('when an alert rule of the example in infra/prometheus reads a bm_ series, then the code defines it', () => {
    const rules = readFileSync(join(ROOT, 'infra', 'prometheus', 'business-messaging.rules.yml'), 'utf8');
    const exprs = rules.split('\n').filter((line) => /^\s+expr:/.test(line));
    expect(exprs.length).toBeGreaterThanOrEqual(2);
    const names = new Set(exprs.flatMap((e) => e.match(/\bbm_[a-z_]+/g) ?? []));
    expect(names).toContain('bm_amqp_dead_letter_messages');
    expect([...names].filter((n) => !code.includes(`'${n}'`))).toEqual([]);
  });
});
